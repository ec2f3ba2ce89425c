import type { CacheRule } from '@rampart/contract';
import type { CacheRuleRow } from './site-cache.repository.js';

export function presentCacheRule(row: CacheRuleRow): CacheRule {
  return {
    id: row.id,
    siteID: row.siteId,
    scope: row.scope,
    values: row.values,
    ttl: row.ttl,
    queryString: row.queryString,
    bypass: row.bypass,
    respectOrigin: row.respectOrigin,
    priority: row.priority,
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
