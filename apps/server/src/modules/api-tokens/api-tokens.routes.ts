import { apiTokenRoutes } from '@rampart/contract';
import { type Binder, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { ApiTokensService } from './api-tokens.service.js';

export function bindApiTokenRoutes(binder: Binder, tokens: ApiTokensService): void {
  const r = apiTokenRoutes;
  binder.bind(r.listApiTokens, async ({ query }, { caller }) =>
    tokens.list(requireCaller(caller), query.page, query.pageSize),
  );
  binder.bind(r.createApiToken, async ({ body }, { caller, request }) => ({
    data: await tokens.create(requireCaller(caller), body, requestLocale(request)),
  }));
  binder.bind(r.deleteApiTokens, async ({ body }, { caller }) => {
    await tokens.delete(requireCaller(caller), body.ids);
    return { data: true as const };
  });
  binder.bind(r.mintApiAccessToken, async ({ params, body }) => ({ data: await tokens.mint(params.auth, body.token) }));
}
