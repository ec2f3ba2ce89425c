import { type EdgeDomainAccess, edgeActionOf, edgeHeaderRule, type StoredHeaderRule } from '@rampart/contract';
import type { DomainAccessRepository } from './domain-access.repository.js';
import type { StoredRefererRule } from './domain-access.service.js';

/**
 * The edge's anti-referer and anti-header lists of the given domains, by domain id: only domains
 * with an enabled rule are in the map, so the others carry nothing. Rules keep their age order.
 */
export async function edgeDomainAccess(
  repo: DomainAccessRepository,
  domainIds: number[],
): Promise<Map<number, EdgeDomainAccess>> {
  const out = new Map<number, EdgeDomainAccess>();
  for (const row of await repo.rulesOf(domainIds)) {
    if (!(row.rule as { enabled?: boolean }).enabled) continue;
    let entry = out.get(row.domainId);
    if (!entry) {
      entry = { referers: [], headers: [] };
      out.set(row.domainId, entry);
    }
    if (row.kind === 'header') {
      entry.headers.push(edgeHeaderRule(row.id, row.rule as unknown as StoredHeaderRule));
      continue;
    }
    const rule = row.rule as unknown as StoredRefererRule;
    entry.referers.push({
      id: row.id,
      url: rule.urlRegex,
      mode: rule.mode,
      hosts: rule.referers,
      allowEmpty: rule.allowEmpty,
      action: edgeActionOf(rule.blockType) as 'deny' | 'drop',
    });
  }
  return out;
}
