import {
  bindModuleRoutes,
  type CorsModule,
  type CustomHeaderModule,
  corsRoutes,
  customHeaderRoutes,
  type LuaAclModule,
  type LuaAclRule,
  luaAclRoutes,
  type ProxyRewriteModule,
  type ProxyRewriteRule,
  proxyRewriteRoutes,
  SITE_MODULE_TYPES,
  type TokenAuth,
  type TokenAuthModule,
  tokenAuthRoutes,
  type UrlRedirectModule,
  type UrlRedirectRule,
  urlRedirectRoutes,
  type WafModule,
  wafRoutes,
} from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import { wafRuleGroups } from './site-modules.presenter.js';
import type { ModuleInput, SiteModulesService } from './site-modules.service.js';

/*
 * The module rows hold the type's settings exactly as the contract's schema parsed them, so the
 * presented object has the type's shape; the casts below name that shape for the binder (which
 * checks every reply against the route's response schema in tests).
 */

export function bindSiteModuleRoutes(binder: Binder, modules: SiteModulesService): void {
  const crud = <M>(
    type: (typeof SITE_MODULE_TYPES)[number],
    r:
      | typeof customHeaderRoutes
      | typeof corsRoutes
      | typeof urlRedirectRoutes
      | typeof proxyRewriteRoutes
      | typeof luaAclRoutes
      | typeof tokenAuthRoutes
      | typeof wafRoutes,
  ) => {
    binder.bind(r.list, async ({ params, query }, { caller }) => {
      const page = await modules.list(caller.accountId, params.siteId, type, query);
      return page as { data: M[]; total: number } as never;
    });
    binder.bind(r.create, async ({ params, body }, { caller }) => ({
      data: (await modules.create(
        caller.accountId,
        params.siteId,
        type,
        body.modules as ModuleInput[],
      )) as M[] as never,
    }));
    binder.bind(r.update, async ({ params, body }, { caller }) => ({
      data: (await modules.update(
        caller.accountId,
        params.siteId,
        type,
        body as ModuleInput & { id: number },
      )) as M as never,
    }));
    binder.bind(r.delete, async ({ params, body }, { caller }) => {
      await modules.delete(caller.accountId, params.siteId, type, body.ids);
    });
  };
  crud<CustomHeaderModule>('customHeader', customHeaderRoutes);
  crud<CorsModule>('cors', corsRoutes);
  crud<UrlRedirectModule>('urlRedirect', urlRedirectRoutes);
  crud<ProxyRewriteModule>('proxyRewrite', proxyRewriteRoutes);
  crud<LuaAclModule>('luaAcl', luaAclRoutes);
  crud<TokenAuthModule>('tokenAuth', tokenAuthRoutes);
  crud<WafModule>('waf', wafRoutes);
  binder.bind(wafRoutes.defaultRules, async (_input, { request }) => ({ data: wafRuleGroups(requestLocale(request)) }));
  binder.bind(wafRoutes.advExists, async ({ params }, { caller }) => ({
    data: await modules.advancedExists(caller.accountId, params.siteId),
  }));

  const rules = <R>(
    type: 'urlRedirect' | 'proxyRewrite' | 'tokenAuth',
    r: typeof urlRedirectRoutes | typeof proxyRewriteRoutes | typeof tokenAuthRoutes,
  ) => {
    binder.bind(r.listRules, async ({ params, query }, { caller }) => {
      const page = await modules.listRules(caller.accountId, params.siteId, type, params.moduleId, query);
      return page as { data: R[]; total: number } as never;
    });
    binder.bind(r.addRules, async ({ params, body }, { caller }) => ({
      data: (await modules.addRules(
        caller.accountId,
        params.siteId,
        type,
        params.moduleId,
        body.items,
      )) as R[] as never,
    }));
    binder.bind(r.updateRule, async ({ params, body }, { caller }) => ({
      data: (await modules.updateRule(caller.accountId, params.siteId, type, params.moduleId, body)) as R as never,
    }));
    binder.bind(r.deleteRules, async ({ params, body }, { caller }) => {
      await modules.deleteRules(caller.accountId, params.siteId, type, params.moduleId, body.ids);
    });
  };
  rules<UrlRedirectRule>('urlRedirect', urlRedirectRoutes);
  rules<ProxyRewriteRule>('proxyRewrite', proxyRewriteRoutes);
  rules<TokenAuth>('tokenAuth', tokenAuthRoutes);
  bindLuaAclRoutes(binder, modules);

  for (const type of SITE_MODULE_TYPES) {
    binder.bind(bindModuleRoutes[type], async ({ params, body }, { caller }) => {
      const moduleId = 'corsID' in body ? body.corsID : body.moduleID;
      await modules.bind(caller.accountId, params.siteId, type, body.domainIDs, moduleId);
    });
  }
}

/** Lua ACL rules (routes/site-module-acl.ts): one rule per POST, sorted lists, enable/disable. */
function bindLuaAclRoutes(binder: Binder, modules: SiteModulesService): void {
  const r = luaAclRoutes;
  binder.bind(r.listRules, async ({ params, query }, { caller }) => {
    const page = await modules.listRules(caller.accountId, params.siteId, 'luaAcl', params.moduleId, query);
    return page as { data: LuaAclRule[]; total: number } as never;
  });
  binder.bind(r.addRule, async ({ params, body }, { caller }) => {
    const [rule] = await modules.addRules(caller.accountId, params.siteId, 'luaAcl', params.moduleId, [body]);
    return { data: rule as LuaAclRule as never };
  });
  binder.bind(r.updateRule, async ({ params, body }, { caller }) => ({
    data: (await modules.updateRule(
      caller.accountId,
      params.siteId,
      'luaAcl',
      params.moduleId,
      body,
    )) as LuaAclRule as never,
  }));
  binder.bind(r.enableRules, async ({ params, body }, { caller }) => {
    await modules.enableRules(caller.accountId, params.siteId, 'luaAcl', params.moduleId, body.ids, body.enabled);
  });
  binder.bind(r.deleteRules, async ({ params, body }, { caller }) => {
    await modules.deleteRules(caller.accountId, params.siteId, 'luaAcl', params.moduleId, body.ids);
  });
}
