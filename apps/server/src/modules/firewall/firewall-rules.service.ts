import {
  FIREWALL_LIST_RULES_PER_SITE,
  GEO_RULE_REGIONS_MAX,
  type GeoRuleIn,
  SITE_RULE_KINDS,
  type SiteRuleKind,
} from '@rampart/contract';
import type { z } from 'zod';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import type { SiteAccessRepository } from '../../platform/tenancy/site-access.repository.js';
import type { FirewallRuleRow, FirewallRulesRepository, FirewallRuleValues } from './firewall-rules.repository.js';

export type RuleKind = SiteRuleKind;
type Input<K extends RuleKind> = z.output<(typeof SITE_RULE_KINDS)[K]['input']>;
type Output<K extends RuleKind> = z.output<(typeof SITE_RULE_KINDS)[K]['output']>;

/** Per kind, from its declaration (contract rule-kinds/site-firewall.ts): what an input stores, and a row's reply. */
const KINDS: {
  [K in RuleKind]: {
    toStored(input: Input<K>): FirewallRuleValues;
    present(row: FirewallRuleRow): Output<K>;
  };
} = SITE_RULE_KINDS;

/** One kind's calls, its name bound (firewall-rules.routes.ts binds them to the kind's routes). */
export interface KindCalls<In, Out> {
  list(userId: number, siteId: number, page: number, pageSize: number): Promise<{ data: Out[]; total: number }>;
  add(userId: number, siteId: number, inputs: In[], operatorId: number | null): Promise<Out[]>;
  update(userId: number, siteId: number, id: number, input: In, operatorId: number | null): Promise<Out>;
  delete(userId: number, siteId: number, ids: number[]): Promise<void>;
}

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
    private readonly sites: SiteAccessRepository,
    private readonly access: SiteAccess,
    private readonly unknownCities: UnknownCities = async () => [],
  ) {}

  /** The calls of one kind. */
  of<K extends RuleKind>(kind: K): KindCalls<Input<K>, Output<K>> {
    return {
      list: (userId, siteId, page, pageSize) => this.list(kind, userId, siteId, page, pageSize),
      add: (userId, siteId, inputs, operatorId) => this.add(kind, userId, siteId, inputs, operatorId),
      update: (userId, siteId, id, input, operatorId) => this.update(kind, userId, siteId, id, input, operatorId),
      delete: (userId, siteId, ids) => this.delete(kind, userId, siteId, ids),
    };
  }

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
  ): Promise<{ data: Output<K>[]; total: number }> {
    await this.access.userSite(userId, siteId);
    const { rows, total } = await this.repo.page(siteId, kind, page, pageSize);
    return { data: rows.map((row) => KINDS[kind].present(row)), total };
  }

  async add<K extends RuleKind>(
    kind: K,
    userId: number,
    siteId: number,
    inputs: Input<K>[],
    operatorId: number | null = null,
  ): Promise<Output<K>[]> {
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
        inputs.map((input) => KINDS[kind].toStored(input)),
      );
      return rows.map((row) => KINDS[kind].present(row));
    });
  }

  async update<K extends RuleKind>(
    kind: K,
    userId: number,
    siteId: number,
    id: number,
    input: Input<K>,
    operatorId: number | null = null,
  ): Promise<Output<K>> {
    await this.access.userSite(userId, siteId);
    await this.checkRegions(kind, operatorId, [input], false);
    const row = await this.repo.update(siteId, kind, id, KINDS[kind].toStored(input));
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
