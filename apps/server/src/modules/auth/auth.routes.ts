import { authRoutes, type Tier, type TokenSet } from '@rampart/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors/app-error.js';
import { type Binder, requireCaller as caller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { AccountService } from './account.service.js';
import type { LoginService, RequestMeta } from './login.service.js';
import type { RefreshCookie } from './refresh-cookie.js';
import type { TokenService } from './token.service.js';

function meta(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? ''), locale: requestLocale(request) };
}

export function bindAuthRoutes(
  binder: Binder,
  login: LoginService,
  tokens: TokenService,
  account: AccountService,
  cookie: RefreshCookie,
): void {
  const r = authRoutes;
  binder.bind(r.requestLogin, async ({ params, body }, { request, reply }) => {
    const step = await login.start(params.auth as Tier, body, meta(request));
    if ('refreshToken' in step) cookie.set(reply, params.auth, step.refreshToken);
    return { data: step };
  });
  binder.bind(r.login, async ({ params, body }, { request, reply }) => {
    const set = await login.finish(params.auth, body, meta(request));
    cookie.set(reply, params.auth, set.refreshToken);
    return { data: set };
  });
  binder.bind(r.resendLoginCode, async ({ params, body }, { request }) => {
    await login.resend(params.auth, body, meta(request));
    return { data: true as const };
  });
  // Logout ends the session of the body's refresh token, else the cookie's; the cookie goes either way.
  binder.bind(r.logout, async ({ params, body }, { request, reply }) => {
    cookie.clear(reply, params.auth);
    const presented = body.refreshToken ?? cookie.read(request, params.auth);
    if (!presented) throw new AppError(101015);
    await tokens.revoke(params.auth, presented);
    return { data: true as const };
  });
  // A token taken from the cookie is answered in the cookie only: no script ever sees it.
  binder.bind(r.refresh, async ({ params, body }, { request, reply }) => {
    const fromCookie = body.refreshToken === undefined;
    const presented = body.refreshToken ?? cookie.read(request, params.auth);
    if (!presented) throw new AppError(101016);
    let set: TokenSet;
    try {
      set = (await tokens.refresh(params.auth, presented)).tokens;
    } catch (error) {
      if (fromCookie) cookie.clear(reply, params.auth);
      throw error;
    }
    cookie.set(reply, params.auth, set.refreshToken);
    return { data: fromCookie ? { ...set, refreshToken: '' } : set };
  });
  binder.bind(r.changePassword, async ({ params, body }, ctx) => {
    const set = await account.changePassword(caller(ctx.caller), body, meta(ctx.request));
    cookie.set(ctx.reply, params.auth, set.refreshToken);
    return { data: set };
  });
  binder.bind(r.setSubAccountPassword, async ({ body }, ctx) => {
    await account.setPasswordOf(caller(ctx.caller), body, meta(ctx.request).locale);
    return { data: true as const };
  });
  binder.bind(r.getSelf, async (_input, ctx) => ({ data: await account.self(caller(ctx.caller)) }));
  binder.bind(r.updateSelf, async ({ body }, ctx) => ({
    data: await account.updateSelf(caller(ctx.caller), body, meta(ctx.request)),
  }));
  binder.bind(r.totpPhase0, async ({ body }, ctx) => ({
    data: await account.setupPhase0(caller(ctx.caller), body, meta(ctx.request)),
  }));
  binder.bind(r.totpPhase0Code, async (_input, ctx) => {
    await account.sendSetupCode(caller(ctx.caller), meta(ctx.request).locale);
    return { data: true as const };
  });
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
