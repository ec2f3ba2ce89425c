import {
  FIREWALL_LIST_RULES_PER_SITE,
  L4_IP_LIST_MAX,
  L4_POSITION_REGIONS_MAX,
  L4_RULE_KINDS,
  type L4PositionRuleIn,
  type SiteL4RuleKind,
} from '@rampart/contract';
import type { z } from 'zod';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import type { SiteAccessRepository } from '../../platform/tenancy/site-access.repository.js';
import type { SitePortsRepository } from '../site-ports/site-ports.repository.js';
import type { FirewallL4Repository, L4RuleRow, L4RuleValues } from './firewall-l4.repository.js';
import type { KindCalls } from './firewall-rules.service.js';

export type L4Kind = SiteL4RuleKind;
type Input<K extends L4Kind> = z.output<(typeof L4_RULE_KINDS)[K]['input']>;
type Output<K extends L4Kind> = z.output<(typeof L4_RULE_KINDS)[K]['output']>;

/** Per kind, from its declaration (contract rule-kinds/site-firewall-l4.ts): what an input stores, a row's reply, its per-port counts. */
const KINDS: {
  [K in L4Kind]: {
    toStored(input: Input<K>): L4RuleValues;
    present(row: L4RuleRow): Output<K>;
    enabledOf(row: Pick<L4RuleRow, 'rule'>): boolean;
    addressesOf(row: Pick<L4RuleRow, 'rule'>): number;
    edge: (typeof L4_RULE_KINDS)[L4Kind]['edge'];
  };
} = L4_RULE_KINDS;

/** The kinds whose addresses count together against a port's L4_IP_LIST_MAX (the whitelists and blacklists). */
const ADDRESS_KINDS = (Object.keys(KINDS) as L4Kind[]).filter((kind) => 'addresses' in KINDS[kind].edge);

/** A position rule lists at most L4_POSITION_REGIONS_MAX regions, as sent (201003). */
function checkRegionCount(kind: L4Kind, inputs: readonly unknown[]): void {
  if (kind !== 'position') return;
  if ((inputs as L4PositionRuleIn[]).some((input) => input.positions.length > L4_POSITION_REGIONS_MAX)) {
    throw new AppError(201003, { extra: { limit: L4_POSITION_REGIONS_MAX } });
  }
}

/**
 * The site firewall's layer-4 rules (routes/firewall-l4.ts). Every call starts with the site check
 * (101018 for a site that is not the caller's); a rule's port must be one of the site's layer-4
 * ports (101003 on `portID`); a rule id of another site or kind answers 101018 like one that does
 * not exist. Writes run with the site row locked, so the per-port checks (one enabled position rule
 * and one enabled connection limit per port: 101025; at most L4_IP_LIST_MAX addresses in a port's
 * whitelists and blacklists together: 101029) see every concurrent write in turn. The nodes take a
 * change with their next snapshot (app.ts bumps the configuration after every write).
 */
export class FirewallL4Service {
  constructor(
    private readonly transactions: Transactions,
    private readonly repo: FirewallL4Repository,
    private readonly sites: SiteAccessRepository,
    private readonly ports: SitePortsRepository,
    private readonly access: SiteAccess,
  ) {}

  /** The calls of one kind (firewall-rules.routes.ts bindKind binds them to the kind's routes). */
  of<K extends L4Kind>(kind: K): KindCalls<Input<K>, Output<K>> {
    return {
      list: (userId, siteId, page, pageSize) => this.list(kind, userId, siteId, page, pageSize),
      add: (userId, siteId, inputs) => this.add(kind, userId, siteId, inputs),
      update: (userId, siteId, id, input) => this.update(kind, userId, siteId, id, input),
      delete: (userId, siteId, ids) => this.delete(kind, userId, siteId, ids),
    };
  }

  async list<K extends L4Kind>(
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

  async add<K extends L4Kind>(kind: K, userId: number, siteId: number, inputs: Input<K>[]): Promise<Output<K>[]> {
    await this.access.userSite(userId, siteId);
    checkRegionCount(kind, inputs);
    const values = inputs.map((input) => KINDS[kind].toStored(input));
    return this.transactions.run(async () => {
      await this.sites.lock(siteId);
      await this.checkPorts(
        siteId,
        values.map((v) => v.portId),
        (i) => `data.${i}.portID`,
      );
      if ((await this.repo.count(siteId, kind)) + values.length > FIREWALL_LIST_RULES_PER_SITE) {
        throw new AppError(101029, { extra: { max: FIREWALL_LIST_RULES_PER_SITE } });
      }
      await this.checkPerPort(kind, values, 0);
      const rows = await this.repo.insert(siteId, kind, values);
      return rows.map((row) => KINDS[kind].present(row));
    });
  }

  async update<K extends L4Kind>(
    kind: K,
    userId: number,
    siteId: number,
    id: number,
    input: Input<K>,
  ): Promise<Output<K>> {
    await this.access.userSite(userId, siteId);
    checkRegionCount(kind, [input]);
    const values = KINDS[kind].toStored(input);
    return this.transactions.run(async () => {
      await this.sites.lock(siteId);
      await this.checkPorts(siteId, [values.portId], () => 'portID');
      await this.checkPerPort(kind, [values], id);
      const row = await this.repo.update(siteId, kind, id, values);
      if (!row) throw new AppError(101018);
      return KINDS[kind].present(row);
    });
  }

  /** All or none: an id that is not a rule of this kind of this site refuses the whole call (101018). */
  async delete(kind: L4Kind, userId: number, siteId: number, ids: number[]): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(await this.repo.delete(siteId, kind, unique), unique);
    });
  }

  /** Every port named must be one of the site's (101003 on the first field that names another). */
  private async checkPorts(siteId: number, portIds: number[], field: (i: number) => string): Promise<void> {
    const own = new Set((await this.ports.byIds(siteId, [...new Set(portIds)])).map((p) => p.id));
    const bad = portIds.findIndex((id) => !own.has(id));
    if (bad >= 0) throw invalidFields([{ field: field(bad), key: 'invalidValue' }]);
  }

  /** The per-port limits, counting the port's stored rules (but `exceptId`) and the new ones together. */
  private async checkPerPort(kind: L4Kind, values: L4RuleValues[], exceptId: number): Promise<void> {
    const portIds = [...new Set(values.map((v) => v.portId))];
    if (ADDRESS_KINDS.includes(kind)) {
      const stored = await this.repo.onPorts(portIds, ADDRESS_KINDS, exceptId);
      const perPort = new Map<number, number>();
      for (const { portId, rule, kind: of } of [...stored, ...values.map((v) => ({ ...v, kind }))]) {
        perPort.set(portId, (perPort.get(portId) ?? 0) + KINDS[of].addressesOf({ rule }));
      }
      if ([...perPort.values()].some((n) => n > L4_IP_LIST_MAX)) {
        throw new AppError(101029, { extra: { max: L4_IP_LIST_MAX } });
      }
      return;
    }
    // One enabled rule of the kind per port (positions, connection limits).
    const stored = await this.repo.onPorts(portIds, [kind], exceptId);
    const enabled = new Map<number, number>();
    for (const { portId, rule } of [...stored, ...values]) {
      if (KINDS[kind].enabledOf({ rule })) enabled.set(portId, (enabled.get(portId) ?? 0) + 1);
    }
    if ([...enabled.values()].some((n) => n > 1)) throw new AppError(101025);
  }
}
