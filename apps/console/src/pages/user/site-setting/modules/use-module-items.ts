import type { AnyRoute, RouteInput, SiteModuleType } from '@rampart/contract';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { Form } from 'antd';
import { useState } from 'react';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { useCreateOrUpdate } from '../../../../app/use-create-or-update';
import type { FieldNameOf } from '../../../../forms/server-errors';
import { MODULE_ITEMS_PAGE_SIZE } from './ModuleItemsDrawer';
import { type ListedModule, ruleInvalidates } from './module-types';

/** The params of a module's item calls. */
interface ItemParams {
  siteId: number;
  moduleId: number;
}

/**
 * The state of a module's items drawer (a Lua ACL's rules, a token auth's keys): the page, the item
 * being edited ('new' adds one), the paged list and the delete. `drawer` is what ModuleItemsDrawer
 * takes of it.
 */
export function useModuleItems<T extends { id: number }>(
  siteId: number,
  module: ListedModule | null,
  type: SiteModuleType,
  routes: { listRules: AnyRoute; deleteRules: AnyRoute },
  onClose: () => void,
) {
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const params: ItemParams = { siteId, moduleId: module?.id ?? 0 };
  const items = useQuery({
    ...routeQuery('user', routes.listRules, {
      params,
      query: { page, pageSize: MODULE_ITEMS_PAGE_SIZE },
    } as unknown as RouteInput<AnyRoute>),
    enabled: module !== null,
  });
  const invalidates = ruleInvalidates(type);
  const remove = useRouteMutation('user', routes.deleteRules, {
    input: (id: number) => ({ params, body: { ids: [id] } }) as unknown as RouteInput<AnyRoute>,
    invalidates,
    success: () => toastText('removeSuccess'),
  });
  const drawer = {
    open: module !== null,
    onAdd: () => setEditing('new'),
    onEdit: (item: T) => setEditing(item),
    remove,
    items: items as UseQueryResult<{ data: unknown[]; total: number }>,
    page,
    onPage: setPage,
    onClose,
  };
  return { params, invalidates, editing, closeForm: () => setEditing(null), drawer };
}

/** The props of a module item's form dialog: 'new' adds an item, an item edits it, null closes. */
export interface ModuleItemFormProps<T> {
  siteId: number;
  moduleId: number;
  item: T | 'new' | null;
  onClose: () => void;
}

interface ModuleItemFormOptions<C extends AnyRoute, U extends AnyRoute, V> {
  type: SiteModuleType;
  create: C;
  update: U;
  /** The create call's body from the form's values. */
  createBody: (values: V) => RouteInput<C>['body'];
  /** A server path → the form field. */
  fieldOf: FieldNameOf;
  /** A new item's values; an edited item's are these fields of it. */
  blank: V;
}

/**
 * The form, the create / update calls and the opening values of a module item's dialog: `existing`
 * is the edited item (null when adding), `initial` its fields named in `blank` (else `blank`).
 */
export function useModuleItemForm<T extends { id: number }, C extends AnyRoute, U extends AnyRoute, V extends object>(
  { siteId, moduleId, item, onClose }: ModuleItemFormProps<T>,
  options: ModuleItemFormOptions<C, U, V>,
) {
  const [form] = Form.useForm<V>();
  const params: ItemParams = { siteId, moduleId };
  const save = useCreateOrUpdate('user', {
    create: options.create,
    update: options.update,
    createInput: (values: V) => ({ params, body: options.createBody(values) }) as unknown as RouteInput<C>,
    updateInput: (values) => ({ params, body: values }) as unknown as RouteInput<U>,
    invalidates: ruleInvalidates(options.type),
    form: { instance: form, fields: options.fieldOf },
    onSuccess: onClose,
  });
  const existing = item === 'new' ? null : item;
  const initial: V = existing
    ? (Object.fromEntries(Object.keys(options.blank).map((k) => [k, existing[k as keyof T]])) as V)
    : options.blank;
  return { form, save, existing, initial };
}
