import {
  type AntiCCRule,
  type AntiCCRuleIn,
  type BlacklistRule,
  type BlacklistRuleIn,
  FIREWALL_LIST_RULES_PER_SITE,
  type HeaderRule,
  type HeaderRuleIn,
  type IntervalLimit,
  type IntervalLimitIn,
  type SecondLimit,
  type SecondLimitIn,
  type UserAgentRule,
  type UserAgentRuleIn,
  type WhitelistRule,
  type WhitelistRuleIn,
} from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { SiteAccess } from '../sites/site-access.js';
import type { SitesRepository } from '../sites/sites.repository.js';
import {
  presentAntiCCRule,
  presentBlacklistRule,
  presentHeaderRule,
  presentIntervalLimit,
  presentSecondLimit,
  presentUserAgentRule,
  presentWhitelistRule,
  type StoredAntiCCRule,
  type StoredHeaderRule,
  type StoredIntervalLimit,
  type StoredListRule,
  type StoredSecondLimit,
  type StoredUserAgentRule,
} from './firewall-rules.presenter.js';
import type { FirewallRuleRow, FirewallRulesRepository, FirewallRuleValues } from './firewall-rules.repository.js';

/** What each rule kind takes and answers. */
interface Kinds {
  whitelist: { input: WhitelistRuleIn; output: WhitelistRule };
  blacklist: { input: BlacklistRuleIn; output: BlacklistRule };
  userAgent: { input: UserAgentRuleIn; output: UserAgentRule };
  header: { input: HeaderRuleIn; output: HeaderRule };
  intervalLimit: { input: IntervalLimitIn; output: IntervalLimit };
  secondLimit: { input: SecondLimitIn; output: SecondLimit };
  antiCC: { input: AntiCCRuleIn; output: AntiCCRule };
}
export type RuleKind = keyof Kinds;

/** Per kind: the stored form of an input (its memo apart) and the reply for a row. */
const KINDS: {
  [K in RuleKind]: {
    store(input: Kinds[K]['input']): FirewallRuleValues;
    present(row: FirewallRuleRow): Kinds[K]['output'];
  };
} = {
  whitelist: {
    store: ({ ips, url, methods, memo }) => ({ rule: { ips, url, methods } satisfies StoredListRule, memo }),
    present: presentWhitelistRule,
  },
  blacklist: {
    store: ({ ips, url, methods, blockType, memo }) => ({
      rule: { ips, url, methods, blockType } satisfies StoredListRule,
      memo,
    }),
    present: presentBlacklistRule,
  },
  userAgent: {
    store: ({ urlRegex, userAgentRegex, blockType, enabled, memo }) => ({
      rule: { urlRegex, userAgentRegex, blockType, enabled } satisfies StoredUserAgentRule,
      memo,
    }),
    present: presentUserAgentRule,
  },
  header: {
    store: ({ memo, ...rule }) => ({ rule: { ...rule } satisfies StoredHeaderRule, memo }),
    present: presentHeaderRule,
  },
  intervalLimit: {
    store: ({ memo, ...rule }) => ({ rule: { ...rule } satisfies StoredIntervalLimit, memo }),
    present: presentIntervalLimit,
  },
  secondLimit: {
    store: ({ memo, ...rule }) => ({ rule: { ...rule } satisfies StoredSecondLimit, memo }),
    present: presentSecondLimit,
  },
  antiCC: {
    store: ({ memo, ...rule }) => ({ rule: { ...rule } satisfies StoredAntiCCRule, memo }),
    present: presentAntiCCRule,
  },
};

/**
 * The site firewall's rule kinds (routes/firewall-lists.ts, firewall-user-agents.ts, firewall-headers.ts,
 * firewall-frequency.ts, firewall-anti-cc.ts). Every call
 * starts with the site check (101018 for a site that is not the caller's, before anything about a
 * rule id is read); a rule id of another site, or of another kind, answers 101018 like one that does
 * not exist. The snapshot hook in app.ts sends a change to the nodes.
 */
export class FirewallRulesService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repo: FirewallRulesRepository,
    private readonly sites: SitesRepository,
    private readonly access: SiteAccess,
  ) {}

  async list<K extends RuleKind>(
    kind: K,
    userId: number,
    siteId: number,
    page: number,
    pageSize: number,
  ): Promise<{ data: Kinds[K]['output'][]; total: number }> {
    await this.access.userSite(userId, siteId);
    const { rows, total } = await this.repo.page(siteId, kind, page, pageSize);
    return { data: rows.map((row) => KINDS[kind].present(row)), total };
  }

  async add<K extends RuleKind>(
    kind: K,
    userId: number,
    siteId: number,
    inputs: Kinds[K]['input'][],
  ): Promise<Kinds[K]['output'][]> {
    await this.access.userSite(userId, siteId);
    return this.transactions.run(async () => {
      // The site row stays locked until the transaction ends: concurrent adds count in turn.
      await this.sites.lock(siteId);
      if ((await this.repo.count(siteId, kind)) + inputs.length > FIREWALL_LIST_RULES_PER_SITE) {
        throw new AppError(101029, { extra: { max: FIREWALL_LIST_RULES_PER_SITE } });
      }
      const rows = await this.repo.insert(
        siteId,
        kind,
        inputs.map((input) => KINDS[kind].store(input)),
      );
      return rows.map((row) => KINDS[kind].present(row));
    });
  }

  async update<K extends RuleKind>(
    kind: K,
    userId: number,
    siteId: number,
    id: number,
    input: Kinds[K]['input'],
  ): Promise<Kinds[K]['output']> {
    await this.access.userSite(userId, siteId);
    const row = await this.repo.update(siteId, kind, id, KINDS[kind].store(input));
    if (!row) throw new AppError(101018);
    return KINDS[kind].present(row);
  }

  /** All or none: an id that is not a rule of this kind of this site refuses the whole call (101018). */
  async delete(kind: RuleKind, userId: number, siteId: number, ids: number[]): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(await this.repo.delete(siteId, kind, unique), unique);
    });
  }
}
