import { accountRoutes } from '@rampart/contract';
import type { FastifyRequest } from 'fastify';
import { type Binder, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { AccountsService } from './accounts.service.js';

/**
 * Account management in the three consoles (`GET client/accounts` is also the site owner picker). `publicUrl` turns the request's origin into the address e-mailed links point at.
 */
export function bindAccountRoutes(
  binder: Binder,
  service: AccountsService,
  publicUrl: (origin: string) => string,
): void {
  const r = accountRoutes;
  const baseUrl = (request: FastifyRequest) => publicUrl(`${request.protocol}://${request.host}`);
  binder.bind(r.listAccounts, async ({ query }, { caller }) => service.list(requireCaller(caller), query));
  binder.bind(r.listSubAccounts, async ({ params, query }, { caller }) =>
    service.subs(requireCaller(caller), params.userId, query.page, query.pageSize),
  );
  binder.bind(r.createAccount, async ({ body }, { caller, request }) => ({
    data: await service.create(requireCaller(caller), body, baseUrl(request), requestLocale(request)),
  }));
  binder.bind(r.updateAccount, async ({ body }, { caller, request }) => ({
    data: await service.update(requireCaller(caller), body, requestLocale(request)),
  }));
  binder.bind(r.deleteAccount, async ({ body }, { caller }) => {
    await service.delete(requireCaller(caller), body.id);
    return { data: true as const };
  });
  binder.bind(r.resendAccountEmail, async ({ body }, { caller, request }) => {
    await service.resendEmail(requireCaller(caller), body.id, baseUrl(request), requestLocale(request));
    return { data: true as const };
  });
  binder.bind(r.resetAccountTwoFactor, async ({ body }, { caller }) => {
    await service.resetTwoFactor(requireCaller(caller), body.id);
    return { data: true as const };
  });
}
