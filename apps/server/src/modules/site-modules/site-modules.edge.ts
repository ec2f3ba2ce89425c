import {
  type AclCondition,
  type CorsSettings,
  type CustomHeaderSettings,
  type EdgeAclCondition,
  type EdgeDomainModules,
  type EdgeModule,
  ipListRanges,
  type LuaAclRuleInput,
  noDomainModules,
  type ProxyRewriteRuleInput,
  type ProxyRewriteSettings,
  type TokenAuthInput,
  type UrlRedirectRuleInput,
  type WafSettings,
} from '@rampart/contract';
import type { SiteModulesRepository } from './site-modules.repository.js';

/**
 * The modules the given domains are bound to, as the data-plane document carries them: one entry
 * per module (rules in id order) and, per bound domain, its module ids by type.
 */
export async function edgeModulesOf(
  repo: SiteModulesRepository,
  domainIds: number[],
): Promise<{ byDomain: Map<number, NonNullable<EdgeDomainModules>>; modules: EdgeModule[] }> {
  const byDomain = new Map<number, NonNullable<EdgeDomainModules>>();
  if (domainIds.length === 0) return { byDomain, modules: [] };
  const bindings = await repo.bindingsOfDomains(domainIds);
  if (bindings.length === 0) return { byDomain, modules: [] };
  for (const b of bindings) {
    const entry = byDomain.get(b.domainId) ?? noDomainModules();
    entry[b.type] = b.moduleId;
    byDomain.set(b.domainId, entry);
  }
  const moduleIds = [...new Set(bindings.map((b) => b.moduleId))];
  const [rows, rules] = await Promise.all([repo.modulesByIds(moduleIds), repo.rulesOfModules(moduleIds)]);
  const rulesOf = (moduleId: number) => rules.filter((r) => r.moduleId === moduleId).map((r) => r.rule);
  const aclRulesOf = (moduleId: number) =>
    rules
      .filter((r) => r.moduleId === moduleId && (r.rule as LuaAclRuleInput).enabled)
      .map((r) => ({ id: r.id, ...(r.rule as LuaAclRuleInput) }))
      // The order the edge tries them: priority, higher first; ties by age (ids grow).
      .sort((a, b) => b.priority - a.priority || a.id - b.id);
  const modules = rows.map((row): EdgeModule => {
    switch (row.type) {
      case 'customHeader': {
        const { headers } = row.settings as CustomHeaderSettings;
        const pick = (t: 'request' | 'response') =>
          headers.filter((h) => h.type === t).map((h) => ({ name: h.name, value: h.value }));
        return { id: row.id, type: 'customHeader', request: pick('request'), response: pick('response') };
      }
      case 'cors': {
        const s = row.settings as CorsSettings;
        return {
          id: row.id,
          type: 'cors',
          origins: s.origins,
          methods: s.methods,
          allowHeaders: s.allowHeaders,
          exposeHeaders: s.exposeHeaders,
          credentials: s.credentials,
          maxAge: s.maxAge,
        };
      }
      case 'urlRedirect':
        return {
          id: row.id,
          type: 'urlRedirect',
          rules: (rulesOf(row.id) as UrlRedirectRuleInput[]).map((r) => ({
            match: r.matchType,
            source: r.source,
            target: r.target,
            code: r.statusCode,
            keepQuery: r.keepQuery,
          })),
        };
      case 'proxyRewrite': {
        const s = row.settings as ProxyRewriteSettings;
        return {
          id: row.id,
          type: 'proxyRewrite',
          host: s.hostHeader === '' ? null : s.hostHeader,
          setHeaders: s.setHeaders,
          removeHeaders: s.removeHeaders,
          rules: (rulesOf(row.id) as ProxyRewriteRuleInput[]).map((r) => ({
            match: r.matchType,
            source: r.source,
            target: r.target,
          })),
        };
      }
      case 'luaAcl':
        return {
          id: row.id,
          type: 'luaAcl',
          siteId: row.siteId,
          rules: aclRulesOf(row.id).map((r) => ({
            id: r.id,
            action: r.action,
            target: r.action === 'redirect' ? r.redirectUrl : null,
            conditions: r.conditions.map(edgeCondition),
          })),
        };
      case 'tokenAuth':
        // Oldest first: the first auth that covers a refused request decides how it is refused.
        return {
          id: row.id,
          type: 'tokenAuth',
          auths: rules
            .filter((r) => r.moduleId === row.id)
            .map((r) => {
              const a = r.rule as TokenAuthInput;
              return { id: r.id, scope: a.scope, value: a.value, key: a.key, expire: a.expire, action: a.action };
            }),
        };
      case 'waf': {
        const s = row.settings as WafSettings;
        return {
          id: row.id,
          type: 'waf',
          siteId: row.siteId,
          mode: s.mode,
          groups: s.groups,
          sensitivity: s.sensitivity,
          failMode: s.failMode,
          exclusions: s.exclusions,
        };
      }
    }
    throw new Error(`module ${row.id} has an unknown type`);
  });
  return { byDomain, modules };
}

/** One ACL condition as the edge reads it (packages/contract/src/edge/modules.ts). */
function edgeCondition(c: AclCondition): EdgeAclCondition {
  switch (c.field) {
    case 'ip':
      return { field: 'ip', negate: c.negate, ...ipListRanges(c.values) };
    case 'country':
      return { field: 'country', negate: c.negate, values: c.values };
    case 'method':
      return { field: 'method', negate: c.negate, values: c.values as ('GET' | 'HEAD')[] };
    case 'frequency':
      return { field: 'frequency', op: c.operator as 'gt', count: c.count, seconds: c.seconds };
    default:
      return {
        field: c.field,
        op: c.operator as 'exact',
        negate: c.negate,
        name: c.field === 'header' ? c.name : '',
        value: c.value,
      };
  }
}
