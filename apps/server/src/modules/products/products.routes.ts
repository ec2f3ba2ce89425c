import { productRoutes } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { ProductsService } from './products.service.js';

export function bindProductRoutes(binder: Binder, products: ProductsService, nodes: NodesService): void {
  const operator = (caller: Caller | null) => {
    return nodes.operatorOf(requireCaller(caller).accountId);
  };
  const r = productRoutes;
  binder.bind(r.listProducts, async ({ query }, { caller }) =>
    products.list(await operator(caller), query.page, query.pageSize),
  );
  binder.bind(r.metaProducts, async (_i, { caller }) => ({ data: await products.meta(await operator(caller)) }));
  binder.bind(r.productGroups, async ({ params, query }, { caller }) => ({
    data: await products.groups(await operator(caller), params.id, query.isBackup),
  }));
  binder.bind(r.createProduct, async ({ body }, { caller, request }) => ({
    data: await products.create(await operator(caller), body, requestLocale(request)),
  }));
  binder.bind(r.updateProduct, async ({ body }, { caller, request }) => ({
    data: await products.update(await operator(caller), body, requestLocale(request)),
  }));
  binder.bind(r.deleteProduct, async ({ body }, { caller }) => {
    await products.delete(await operator(caller), body.id);
    return { data: true as const };
  });
}
