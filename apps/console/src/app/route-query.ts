import type { AnyRoute, RouteInput, RouteReply, Tier } from '@rampart/contract';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import type { DescribeOptions } from '../api/errors';
import { applyFieldErrors, type FieldNames } from '../forms/server-errors';
import { callAuthed, sessionQueryKey } from '../session';
import { showApiError } from './show-error';
import { toast } from './toast';

/**
 * The cache key of a route's data: the session prefix (dropped when the session changes), the
 * route's id, then its input. Invalidating `routeKey(tier, route)` refreshes every page of it.
 */
export function routeKey(tier: Tier, route: AnyRoute, input?: unknown): readonly unknown[] {
  return input === undefined ? sessionQueryKey(tier, route.id) : sessionQueryKey(tier, route.id, input);
}

/** Query options that read a route as the tier's signed-in account: `useQuery(routeQuery(...))`. */
export function routeQuery<R extends AnyRoute>(tier: Tier, route: R, input: RouteInput<R>) {
  return {
    queryKey: routeKey(tier, route, input),
    queryFn: ({ signal }: { signal: AbortSignal }) => callAuthed(tier, route, input, { signal }),
  };
}

/** Marks the data of these routes stale, so the lists on screen reload. */
export function invalidateRoutes(client: QueryClient, tier: Tier, routes: readonly AnyRoute[]): Promise<void> {
  return Promise.all(routes.map((route) => client.invalidateQueries({ queryKey: routeKey(tier, route) }))).then(
    () => undefined,
  );
}

interface MutationOutcome<T, V> {
  /** Routes whose data the call changes; their lists reload on success. */
  invalidates: readonly AnyRoute[];
  /** Success toast (a text of the contract's TOASTS or the console's resources). */
  success?: () => string;
  /** Field errors of a 101003 reply go under the fields of this form; anything else is shown as a toast or dialog. */
  form?: { instance: FormInstance; fields: FieldNames };
  onSuccess?: (reply: T, values: V) => void;
  /** Reload the lists after a failure too: an action of several calls may have done part of its work. */
  refreshOnError?: boolean;
  /** How a failure shown as a toast reads where the caller knows more (a limit's text). */
  describe?: DescribeOptions;
}

interface RouteMutationOptions<R extends AnyRoute, V> extends MutationOutcome<RouteReply<R>, V> {
  /** What the form's values become: the route's params and body. */
  input: (values: V) => RouteInput<R>;
}

/**
 * A call that changes data, with the console's usual outcome: a success toast and fresh lists,
 * or the failure under the form's fields (101003) or as a toast / the 101009 dialog.
 */
export function useRouteMutation<R extends AnyRoute, V>(tier: Tier, route: R, options: RouteMutationOptions<R, V>) {
  return useCallsMutation(tier, (values: V) => callAuthed(tier, route, options.input(values)), options);
}

/** {@link useRouteMutation} for an action made of several calls (`run` makes them, in order). */
export function useCallsMutation<T, V>(tier: Tier, run: (values: V) => Promise<T>, options: MutationOutcome<T, V>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async (reply, values) => {
      if (options.success) toast.success(options.success());
      options.onSuccess?.(reply, values);
      await invalidateRoutes(client, tier, options.invalidates);
    },
    onError: async (error) => {
      const { form } = options;
      if (!form || !applyFieldErrors(form.instance, error, form.fields)) showApiError(error, options.describe);
      if (options.refreshOnError) await invalidateRoutes(client, tier, options.invalidates);
    },
  });
}
