import type { AnyRoute, RouteInput, RouteReply, Tier } from '@rampart/contract';
import type { FormInstance } from 'antd';
import type { DescribeOptions } from '../api/errors';
import type { FieldNames } from '../forms/server-errors';
import { useRouteMutation } from './route-query';
import { createdText, toastText } from './toast';

interface CreateOrUpdateOptions<C extends AnyRoute, U extends AnyRoute, V, E extends { id: number }> {
  create: C;
  update: U;
  /** The create call's params and body from the form's values. */
  createInput: (values: V) => RouteInput<C>;
  /** The update call's params and body from the form's values with the edited row's id (and the row itself). */
  updateInput: (values: V & { id: number }, existing: E) => RouteInput<U>;
  /** Reads the change makes stale: `changes('<resource>')`. */
  invalidates: readonly AnyRoute[];
  /** Field errors of a 101003 reply go under these fields. */
  form: { instance: FormInstance; fields: FieldNames };
  /** The create's field names when its body nests the form's values (a list of one), else `form.fields`. */
  createFields?: FieldNames;
  /** Toasts other than the usual created / updated ones. */
  success?: { create?: () => string; update?: () => string };
  /** After either call succeeded (the dialog closes). */
  onSuccess: () => void;
  /** After the create succeeded, with its reply (before `onSuccess`). */
  onCreated?: (reply: RouteReply<C>) => void;
  /** How a failure shown as a toast reads (a limit's text). */
  describe?: DescribeOptions;
}

/**
 * The create and update calls of a form dialog, with the console's usual outcome for each: the
 * created / updated toast, fresh reads, field errors under the form. `submit` makes the update when
 * a row is being edited, else the create.
 */
export function useCreateOrUpdate<C extends AnyRoute, U extends AnyRoute, V, E extends { id: number } = { id: number }>(
  tier: Tier,
  options: CreateOrUpdateOptions<C, U, V, E>,
) {
  const { form, success } = options;
  const outcome = {
    invalidates: options.invalidates,
    onSuccess: () => options.onSuccess(),
    describe: options.describe,
  };
  const create = useRouteMutation(tier, options.create, {
    input: options.createInput,
    success: success?.create ?? createdText,
    form: { instance: form.instance, fields: options.createFields ?? form.fields },
    ...outcome,
    onSuccess: (reply: RouteReply<C>) => {
      options.onCreated?.(reply);
      options.onSuccess();
    },
  });
  const update = useRouteMutation(tier, options.update, {
    input: ({ values, existing }: { values: V; existing: E }) =>
      options.updateInput({ ...values, id: existing.id }, existing),
    success: success?.update ?? (() => toastText('updateSuccess')),
    form,
    ...outcome,
  });
  return {
    pending: create.isPending || update.isPending,
    submit: (values: V, existing: E | null) => (existing ? update.mutate({ values, existing }) : create.mutate(values)),
  };
}
