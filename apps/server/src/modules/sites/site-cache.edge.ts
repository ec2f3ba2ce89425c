import { type EdgeCachePolicy, FILE_TYPE_GROUPS } from '@rampart/contract';
import type { SiteCacheRepository } from './site-cache.repository.js';

/**
 * The edge's cache policies of the given sites: those with at least one rule, rules in the order
 * the edge tries them, file-type groups expanded into suffixes.
 */
export async function edgeCachePolicies(cache: SiteCacheRepository, siteIds: number[]): Promise<EdgeCachePolicy[]> {
  const rows = await cache.rulesOfSites(siteIds);
  const policies = new Map<number, EdgeCachePolicy>();
  for (const { rule, generation } of rows) {
    let policy = policies.get(rule.siteId);
    if (!policy) {
      policy = { id: rule.siteId, generation, rules: [] };
      policies.set(rule.siteId, policy);
    }
    const values =
      rule.scope === 'fileType'
        ? [
            ...new Set(
              rule.values.flatMap((group) => [...(FILE_TYPE_GROUPS[group as keyof typeof FILE_TYPE_GROUPS] ?? [])]),
            ),
          ]
        : rule.values;
    policy.rules.push({
      scope: rule.scope === 'fileType' ? 'suffix' : rule.scope,
      values,
      ttl: rule.ttl,
      queryString: rule.queryString,
      bypass: rule.bypass,
      respectOrigin: rule.respectOrigin,
    });
  }
  return [...policies.values()];
}
