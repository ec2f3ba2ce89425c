import {
  type AntiCCRule,
  type AntiCCRuleIn,
  type BlacklistRule,
  type BlacklistRuleIn,
  FIREWALL_LIST_RULES_PER_SITE,
  GEO_RULE_REGIONS_MAX,
  type GeoRule,
  type GeoRuleIn,
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
import { invalidFields } from '../../platform/http/validation.js';
import type { SiteAccess } from '../sites/site-access.js';
import type { SitesRepository } from '../sites/sites.repository.js';
import {
  presentAntiCCRule,
  presentBlacklistRule,
  presentGeoRule,
  presentHeaderRule,
  presentIntervalLimit,
  presentSecondLimit,
  presentUserAgentRule,
  presentWhitelistRule,
  type StoredAntiCCRule,
  type StoredGeoRule,
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
  geo: { input: GeoRuleIn; output: GeoRule };
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
  geo: {
    // Each region once, in the order given.
    store: ({ memo, geoIDs, ...rule }) => ({
      rule: { ...rule, geoIDs: [...new Set(geoIDs)] } satisfies StoredGeoRule,
      memo,
    }),
    present: presentGeoRule,
  },
};

/** The city ids among `ids` the operator's geo database does not know (geo/geo-database.service.ts). */
export type UnknownCities = (operatorId: number | null, ids: readonly number[]) => Promise<number[]>;

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
    private readonly unknownCities: UnknownCities = async () => [],
  ) {}

  /**
   * A geo rule's regions: at most GEO_RULE_REGIONS_MAX (201003), every city one the operator's
   * database knows (101003 naming the field; countries the contract checked).
   */
  private async checkRegions(
    kind: RuleKind,
    operatorId: number | null,
    inputs: readonly unknown[],
    /** Whether the inputs are an add's `data` (fields `data.<i>.geoIDs`) or one rule (`geoIDs`). */
    many: boolean,
  ): Promise<void> {
    if (kind !== 'geo') return;
    for (const [i, input] of (inputs as GeoRuleIn[]).entries()) {
      const ids = [...new Set(input.geoIDs)];
      if (ids.length > GEO_RULE_REGIONS_MAX) throw new AppError(201003, { extra: { limit: GEO_RULE_REGIONS_MAX } });
      const unknown = await this.unknownCities(operatorId, ids.filter((id) => /^[0-9]+$/.test(id)).map(Number));
      if (unknown.length > 0) {
        throw invalidFields([
          {
            field: many ? `data.${i}.geoIDs` : 'geoIDs',
            key: 'geoCityUnknown',
            params: { ids: unknown.slice(0, 10).join(', ') },
          },
        ]);
      }
    }
  }

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
    operatorId: number | null = null,
  ): Promise<Kinds[K]['output'][]> {
    await this.access.userSite(userId, siteId);
    await this.checkRegions(kind, operatorId, inputs, true);
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
    operatorId: number | null = null,
  ): Promise<Kinds[K]['output']> {
    await this.access.userSite(userId, siteId);
    await this.checkRegions(kind, operatorId, [input], false);
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
