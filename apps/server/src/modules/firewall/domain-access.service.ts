import {
  type AntiHeader,
  type AntiReferer,
  type AntiRefererIn,
  DOMAIN_ACCESS_RULES_MAX,
  type HeaderRuleIn,
  type RefererMode,
  type StoredHeaderRule,
  storedHeaderRuleSchema,
} from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import type { SiteAccessRepository } from '../../platform/tenancy/site-access.repository.js';
import type { DomainsRepository } from '../domains/domains.repository.js';
import type { DomainAccessKind, DomainAccessRepository, DomainAccessRow } from './domain-access.repository.js';
import type { FirewallRuleValues } from './firewall-rules.repository.js';

/** The fields an anti-referer rule stores in its `rule` column. */
export interface StoredRefererRule {
  urlRegex: string;
  mode: RefererMode;
  referers: string[];
  allowEmpty: boolean;
  blockType: number;
  enabled: boolean;
}

/** What each list takes and answers. */
interface Kinds {
  referer: { input: AntiRefererIn; output: AntiReferer };
  header: { input: HeaderRuleIn; output: AntiHeader };
}
type Owner = { siteID: number; domainID: number };

const KINDS: {
  [K in DomainAccessKind]: {
    store(input: Kinds[K]['input']): FirewallRuleValues;
    present(row: DomainAccessRow, owner: Owner): Kinds[K]['output'];
  };
} = {
  referer: {
    store: ({ memo, ...rule }) => ({ rule: { ...rule } satisfies StoredRefererRule, memo }),
    present: (row, owner) => {
      const rule = row.rule as unknown as StoredRefererRule;
      return {
        id: row.id,
        ...owner,
        urlRegex: rule.urlRegex,
        mode: rule.mode,
        referers: rule.referers,
        allowEmpty: rule.allowEmpty,
        blockType: rule.blockType,
        enabled: rule.enabled,
        memo: row.memo,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      };
    },
  },
  header: {
    store: ({ memo, ...rule }) => ({ rule: { ...rule } satisfies StoredHeaderRule, memo }),
    present: (row, owner) => ({
      id: row.id,
      ...owner,
      ...storedHeaderRuleSchema.parse(row.rule),
      memo: row.memo,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }),
  },
};

/**
 * A domain's anti-referer and anti-header lists (routes/domain-access.ts). Every call starts with
 * the site check, then the domain's (it must be of that site): 101018 for either before anything
 * about a rule id is read; a rule id of another domain, or of the other list, answers 101018 like
 * one that does not exist. The snapshot hook in app.ts sends a change to the nodes.
 */
export class DomainAccessService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repo: DomainAccessRepository,
    private readonly domains: DomainsRepository,
    private readonly sites: SiteAccessRepository,
    private readonly access: SiteAccess,
  ) {}

  private async owner(userId: number, siteId: number, domainId: number): Promise<Owner> {
    await this.access.userSite(userId, siteId);
    const [domain] = await this.domains.findMany(siteId, [domainId]);
    if (!domain) throw new AppError(101018);
    return { siteID: siteId, domainID: domainId };
  }

  async list<K extends DomainAccessKind>(
    kind: K,
    userId: number,
    siteId: number,
    domainId: number,
    page: number,
    pageSize: number,
  ): Promise<{ data: Kinds[K]['output'][]; total: number }> {
    const owner = await this.owner(userId, siteId, domainId);
    const { rows, total } = await this.repo.page(domainId, kind, page, pageSize);
    return { data: rows.map((row) => KINDS[kind].present(row, owner)), total };
  }

  async add<K extends DomainAccessKind>(
    kind: K,
    userId: number,
    siteId: number,
    domainId: number,
    inputs: Kinds[K]['input'][],
  ): Promise<Kinds[K]['output'][]> {
    const owner = await this.owner(userId, siteId, domainId);
    return this.transactions.run(async () => {
      // The site row stays locked until the transaction ends: concurrent adds count in turn.
      await this.sites.lock(siteId);
      if ((await this.repo.count(domainId, kind)) + inputs.length > DOMAIN_ACCESS_RULES_MAX) {
        throw new AppError(101029, { extra: { max: DOMAIN_ACCESS_RULES_MAX } });
      }
      const rows = await this.repo.insert(
        domainId,
        kind,
        inputs.map((input) => KINDS[kind].store(input)),
      );
      return rows.map((row) => KINDS[kind].present(row, owner));
    });
  }

  async update<K extends DomainAccessKind>(
    kind: K,
    userId: number,
    siteId: number,
    domainId: number,
    id: number,
    input: Kinds[K]['input'],
  ): Promise<Kinds[K]['output']> {
    const owner = await this.owner(userId, siteId, domainId);
    const row = await this.repo.update(domainId, kind, id, KINDS[kind].store(input));
    if (!row) throw new AppError(101018);
    return KINDS[kind].present(row, owner);
  }

  /** All or none: an id that is not a rule of this list of this domain refuses the whole call (101018). */
  async delete(kind: DomainAccessKind, userId: number, siteId: number, domainId: number, ids: number[]): Promise<void> {
    await this.owner(userId, siteId, domainId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(await this.repo.delete(domainId, kind, unique), unique);
    });
  }
}
