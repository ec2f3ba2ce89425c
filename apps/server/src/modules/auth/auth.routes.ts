import { authRoutes, type Tier } from '@rampart/contract';
import type { FastifyRequest } from 'fastify';
import { type Binder, requireCaller as caller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { AccountService } from './account.service.js';
import type { LoginService, RequestMeta } from './login.service.js';
import type { TokenService } from './token.service.js';

function meta(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? ''), locale: requestLocale(request) };
}

export function bindAuthRoutes(
  binder: Binder,
  login: LoginService,
  tokens: TokenService,
  account: AccountService,
): void {
  const r = authRoutes;
  binder.bind(r.requestLogin, async ({ params, body }, { request }) => ({
    data: await login.start(params.auth as Tier, body, meta(request)),
  }));
  binder.bind(r.login, async ({ params, body }, { request }) => ({
    data: await login.finish(params.auth, body, meta(request)),
  }));
  binder.bind(r.resendLoginCode, async ({ params, body }, { request }) => {
    await login.resend(params.auth, body, meta(request));
    return { data: true as const };
  });
  binder.bind(r.logout, async ({ params, body }) => {
    await tokens.revoke(params.auth, body.refreshToken);
    return { data: true as const };
  });
  binder.bind(r.refresh, async ({ params, body }) => ({
    data: (await tokens.refresh(params.auth, body.refreshToken)).tokens,
  }));
  binder.bind(r.changePassword, async ({ body }, ctx) => ({
    data: await account.changePassword(caller(ctx.caller), body, meta(ctx.request)),
  }));
  binder.bind(r.setSubAccountPassword, async ({ body }, ctx) => {
    await account.setPasswordOf(caller(ctx.caller), body, meta(ctx.request).locale);
    return { data: true as const };
  });
  binder.bind(r.getSelf, async (_input, ctx) => ({ data: await account.self(caller(ctx.caller)) }));
  binder.bind(r.updateSelf, async ({ body }, ctx) => ({
    data: await account.updateSelf(caller(ctx.caller), body, meta(ctx.request).locale),
  }));
  binder.bind(r.totpPhase0, async ({ body }, ctx) => ({
    data: await account.setupPhase0(caller(ctx.caller), body.password, meta(ctx.request).locale),
  }));
  binder.bind(r.totpPhase1, async ({ body }, ctx) => ({
    data: await account.setupPhase1(caller(ctx.caller), body.onePassKey),
  }));
  binder.bind(r.totpPhase2, async ({ body }, ctx) => ({
    data: await account.setupPhase2(caller(ctx.caller), body, meta(ctx.request).locale),
  }));
  binder.bind(r.checkRegisterToken, async ({ body }) => ({ data: await account.checkPasswordToken(body.token) }));
  binder.bind(r.registerPassword, async ({ body }, { request }) => {
    await account.registerPassword(body.token, body.password, meta(request).locale);
    return { data: true as const };
  });
}
