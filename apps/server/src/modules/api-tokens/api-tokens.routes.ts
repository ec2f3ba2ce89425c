import { apiTokenRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { ApiTokensService } from './api-tokens.service.js';

export function bindApiTokenRoutes(binder: Binder, tokens: ApiTokensService): void {
  const r = apiTokenRoutes;
  binder.bind(r.listApiTokens, async ({ query }, { caller }) => tokens.list(caller, query.page, query.pageSize));
  binder.bind(r.createApiToken, async ({ body }, { caller }) => ({ data: await tokens.create(caller, body) }));
  binder.bind(r.deleteApiTokens, async ({ body }, { caller }) => {
    await tokens.delete(caller, body.ids);
  });
  binder.bind(r.mintApiAccessToken, async ({ params, body }) => ({ data: await tokens.mint(params.auth, body.token) }));
}
