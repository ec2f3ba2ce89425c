import type { AnyRoute, RouteInput, Tier } from '@rampart/contract';
import type { FormInstance } from 'antd';
import type { FieldNames } from '../forms/server-errors';
import { useRouteMutation } from './route-query';
import { createdText, toastText } from './toast';

interface CreateOrUpdateOptions<C extends AnyRoute, U extends AnyRoute, V> {
  create: C;
  update: U;
  /** The create call's params and body from the form's values. */
  createInput: (values: V) => RouteInput<C>;
  /** The update call's params and body from the form's values and the edited row's id. */
  updateInput: (values: V & { id: number }) => RouteInput<U>;
  /** Reads the change makes stale: `changes('<resource>')`. */
  invalidates: readonly AnyRoute[];
  /** Field errors of a 101003 reply go under these fields. */
  form: { instance: FormInstance; fields: FieldNames };
  /** After either call succeeded (the dialog closes). */
  onSuccess: () => void;
}

/**
 * The create and update calls of a form dialog, with the console's usual outcome for each: the
 * created / updated toast, fresh reads, field errors under the form. `submit` makes the update when
 * a row is being edited, else the create.
 */
export function useCreateOrUpdate<C extends AnyRoute, U extends AnyRoute, V>(
  tier: Tier,
  options: CreateOrUpdateOptions<C, U, V>,
) {
  const outcome = { invalidates: options.invalidates, form: options.form, onSuccess: () => options.onSuccess() };
  const create = useRouteMutation(tier, options.create, {
    input: options.createInput,
    success: createdText,
    ...outcome,
  });
  const update = useRouteMutation(tier, options.update, {
    input: options.updateInput,
    success: () => toastText('updateSuccess'),
    ...outcome,
  });
  return {
    pending: create.isPending || update.isPending,
    submit: (values: V, existing: { id: number } | null) =>
      existing ? update.mutate({ ...values, id: existing.id }) : create.mutate(values),
  };
}
