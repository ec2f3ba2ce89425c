import type { EdgeAuthGroup, EdgeDomainAuth } from '@rampart/contract';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { BasicData, JwtData, KeyData } from './site-auth.presenter.js';
import type { SiteAuthRepository } from './site-auth.repository.js';

/**
 * The auth part of each served domain's entry (packages/contract/src/edge/auth.ts): the enabled
 * rules of its site that cover it, in the order the edge tries them, and the groups they name with
 * their credentials. A domain no rule covers gets nothing.
 */
export async function edgeDomainAuth(
  repo: SiteAuthRepository,
  box: SecretBox,
  domains: readonly { id: number; siteId: number }[],
): Promise<Map<number, EdgeDomainAuth>> {
  const out = new Map<number, EdgeDomainAuth>();
  const siteIds = [...new Set(domains.map((d) => d.siteId))];
  const rules = await repo.enabledRulesOfSites(siteIds);
  if (rules.length === 0) return out;
  const groupIds = [...new Set(rules.map((r) => r.groupId))];
  const groups = new Map<number, EdgeAuthGroup>(groupIds.map((id) => [id, { id, basic: [], key: [], jwt: [] }]));
  for (const row of await repo.credentialsOfGroups(groupIds)) {
    const group = groups.get(row.groupId);
    if (!group) continue;
    if (row.kind === 'basic') {
      const d = row.data as unknown as BasicData;
      group.basic.push({ id: row.id, user: row.name, salt: d.passwordSalt, hash: d.passwordHash });
    } else if (row.kind === 'key') {
      const d = row.data as unknown as KeyData;
      const name = d.location === 'header' ? d.param.toLowerCase() : d.param;
      group.key.push({ id: row.id, in: d.location, name, key: d.key });
    } else {
      const d = row.data as unknown as JwtData;
      const key = d.alg === 'HS256' ? (d.secretSealed === null ? '' : box.open(d.secretSealed)) : d.publicKey;
      if (key === '') continue;
      group.jwt.push({
        id: row.id,
        alg: d.alg,
        key,
        iss: d.issuer,
        aud: d.audience,
        leeway: d.leeway,
        requireExp: d.requireExp ?? false,
      });
    }
  }
  for (const domain of domains) {
    const mine = rules.filter(
      (r) => r.siteId === domain.siteId && (r.domainIds.length === 0 || r.domainIds.includes(domain.id)),
    );
    if (mine.length === 0) continue;
    const used = [...new Set(mine.map((r) => r.groupId))];
    out.set(domain.id, {
      rules: mine.map((r) => ({ id: r.id, match: r.match, path: r.path, group: r.groupId })),
      groups: used.map((id) => groups.get(id) as EdgeAuthGroup),
    });
  }
  return out;
}
