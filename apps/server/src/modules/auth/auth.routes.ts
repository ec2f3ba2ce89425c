import { authRoutes, type Tier, type TokenSet } from '@rampart/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors/app-error.js';
import type { Binder } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { AccountService } from './account.service.js';
import type { LoginService, RequestMeta } from './login.service.js';
import type { RefreshCookie } from './refresh-cookie.js';
import type { TokenService } from './token.service.js';

/** Who calls from where; the request's language is the language of the mails the call sends. */
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
  });
  // Logout ends the session of the body's refresh token, else the cookie's; the cookie goes either way.
  binder.bind(r.logout, async ({ params, body }, { request, reply }) => {
    cookie.clear(reply, params.auth);
    const presented = body.refreshToken ?? cookie.read(request, params.auth);
    if (!presented) throw new AppError(101015);
    await tokens.revoke(params.auth, presented);
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
  binder.bind(r.changePassword, async ({ params, body }, { caller, request, reply }) => {
    const set = await account.changePassword(caller, body, meta(request));
    cookie.set(reply, params.auth, set.refreshToken);
    return { data: set };
  });
  binder.bind(r.setSubAccountPassword, async ({ body }, { caller }) => {
    await account.setPasswordOf(caller, body);
  });
  binder.bind(r.getSelf, async (_input, { caller }) => ({ data: await account.self(caller) }));
  binder.bind(r.updateSelf, async ({ body }, { caller, request }) => ({
    data: await account.updateSelf(caller, body, meta(request)),
  }));
  binder.bind(r.totpPhase0, async ({ body }, { caller, request }) => ({
    data: await account.setupPhase0(caller, body, meta(request)),
  }));
  binder.bind(r.totpPhase0Code, async (_input, { caller, request }) => {
    await account.sendSetupCode(caller, meta(request));
  });
  binder.bind(r.totpPhase1, async ({ body }, { caller }) => ({
    data: await account.setupPhase1(caller, body.onePassKey),
  }));
  binder.bind(r.totpPhase2, async ({ body }, { caller }) => ({ data: await account.setupPhase2(caller, body) }));
  binder.bind(r.checkRegisterToken, async ({ body }) => ({ data: await account.checkPasswordToken(body.token) }));
  binder.bind(r.registerPassword, async ({ body }) => {
    await account.registerPassword(body.token, body.password);
  });
}
