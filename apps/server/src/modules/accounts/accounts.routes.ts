import { accountRoutes } from '@rampart/contract';
import type { FastifyRequest } from 'fastify';
import type { Binder } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { MailContext } from '../../platform/mail/mail-context.js';
import type { AccountsService } from './accounts.service.js';

/**
 * Account management in the three consoles (`GET client/accounts` is also the site owner picker).
 * `publicUrl` turns the request's origin into the address e-mailed links point at; the request's
 * language is the language of the create-password mail.
 */
export function bindAccountRoutes(
  binder: Binder,
  service: AccountsService,
  publicUrl: (origin: string) => string,
): void {
  const r = accountRoutes;
  const mail = (request: FastifyRequest): MailContext => ({
    baseUrl: publicUrl(`${request.protocol}://${request.host}`),
    locale: requestLocale(request),
  });
  binder.bind(r.listAccounts, async ({ query }, { caller }) => service.list(caller, query));
  binder.bind(r.listSubAccounts, async ({ params, query }, { caller }) =>
    service.subs(caller, params.userId, query.page, query.pageSize),
  );
  binder.bind(r.createAccount, async ({ body }, { caller, request }) => ({
    data: await service.create(caller, body, mail(request)),
  }));
  binder.bind(r.updateAccount, async ({ body }, { caller }) => ({ data: await service.update(caller, body) }));
  binder.bind(r.deleteAccount, async ({ body }, { caller }) => {
    await service.delete(caller, body.id);
  });
  binder.bind(r.resendAccountEmail, async ({ body }, { caller, request }) => {
    await service.resendEmail(caller, body.id, mail(request));
  });
  binder.bind(r.accountCreatePasswordLink, async ({ body }, { caller, request }) => ({
    data: { link: await service.createPasswordLink(caller, body.id, mail(request)) },
  }));
  binder.bind(r.resetAccountTwoFactor, async ({ body }, { caller }) => {
    await service.resetTwoFactor(caller, body.id);
  });
}
