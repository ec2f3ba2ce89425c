import { productRoutes as r } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { ProductsService } from './products.service.js';

export function bindProductRoutes(binder: Binder, products: ProductsService): void {
  binder.bind(r.listProducts, async ({ query }, { caller }) =>
    products.list(caller.operatorId, query.page, query.pageSize),
  );
  binder.bind(r.metaProducts, async (_i, { caller }) => ({ data: await products.meta(caller.operatorId) }));
  binder.bind(r.productGroups, async ({ params, query }, { caller }) => ({
    data: await products.groups(caller.operatorId, params.id, query.isBackup),
  }));
  binder.bind(r.createProduct, async ({ body }, { caller }) => ({
    data: await products.create(caller.operatorId, body),
  }));
  binder.bind(r.updateProduct, async ({ body }, { caller }) => ({
    data: await products.update(caller.operatorId, body),
  }));
  binder.bind(r.deleteProduct, async ({ body }, { caller }) => {
    await products.delete(caller.operatorId, body.id);
  });
}
