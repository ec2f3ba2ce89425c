import type {
  CorsSettings,
  CustomHeaderSettings,
  EdgeDomainModules,
  EdgeModule,
  ProxyRewriteRuleInput,
  ProxyRewriteSettings,
  UrlRedirectRuleInput,
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
    const entry = byDomain.get(b.domainId) ?? { customHeader: null, urlRedirect: null, cors: null, proxyRewrite: null };
    entry[b.type] = b.moduleId;
    byDomain.set(b.domainId, entry);
  }
  const moduleIds = [...new Set(bindings.map((b) => b.moduleId))];
  const [rows, rules] = await Promise.all([repo.modulesByIds(moduleIds), repo.rulesOfModules(moduleIds)]);
  const rulesOf = (moduleId: number) => rules.filter((r) => r.moduleId === moduleId).map((r) => r.rule);
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
    }
    throw new Error(`module ${row.id} has an unknown type`);
  });
  return { byDomain, modules };
}
