import type { Zone, ZoneIn, ZoneListQuery, ZoneSettings, ZoneUpdateIn } from '@rampart/contract';
import { DEFAULT_LINE, DEFAULT_ZONE_PORTS } from '@rampart/contract';
import { onForeignKeyViolation, onUniqueViolation } from '../../platform/db/errors.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { ClientCaller } from '../../platform/http/bind-route.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { AccountZonesRepository } from '../account-zones/account-zones.repository.js';
import type { GroupLinesRepository } from '../group-lines/group-lines.repository.js';
import { placeOnLine } from '../group-lines/group-lines.service.js';
import type { LicenseLimits } from '../licenses/license-limits.js';
import type { NodesRepository } from '../nodes/nodes.repository.js';
import type { NodeCapacity } from '../snapshots/node-capacity.js';
import type { ZoneSettingsRepository } from './zone-settings.repository.js';
import { presentZone, presentZoneSettings } from './zones.presenter.js';
import type { ZoneRow, ZonesRepository } from './zones.repository.js';

/** What the zone list reads of the caller: its operator and the zones it may name. */
type ZoneCaller = Pick<ClientCaller, 'operatorId' | 'zoneScope'>;

/** What ZonesService works with besides its own repository. */
export interface ZonesServiceDeps {
  readonly zoneSettings: ZoneSettingsRepository;
  readonly accountZones: AccountZonesRepository;
  readonly nodes: NodesRepository;
  readonly groupLines: GroupLinesRepository;
  readonly transactions: Transactions;
  readonly capacity: NodeCapacity;
  readonly licenseLimits: LicenseLimits;
}

/** Zones of one operator. A zone that does not belong to the operator is 101018, like a missing one. */
export class ZonesService {
  constructor(
    private readonly zones: ZonesRepository,
    private readonly deps: ZonesServiceDeps,
  ) {}

  /** The operator's zones; a sub-account restricted to some zones (`zoneScope`) sees only those. */
  async list(caller: ZoneCaller, q: ZoneListQuery) {
    const { operatorId, zoneScope } = caller;
    const { rows, total } = await this.zones.list(operatorId, q.page, q.pageSize, q.sortBy, q.orderBy, zoneScope);
    return { data: rows.map(presentZone), total };
  }

  meta(caller: ZoneCaller) {
    return this.zones.meta(caller.operatorId, caller.zoneScope);
  }

  private async row(operatorId: number, id: number): Promise<ZoneRow> {
    const row = await this.zones.find(operatorId, id);
    if (!row) throw new AppError(101018);
    return row;
  }

  private async get(operatorId: number, id: number): Promise<Zone> {
    return presentZone(await this.row(operatorId, id));
  }

  async settings(operatorId: number, id: number): Promise<ZoneSettings> {
    return presentZoneSettings(await this.row(operatorId, id));
  }

  /**
   * Changes listen settings or limits of a zone; its nodes get them with their next snapshot (the
   * snapshot is built from these columns, so its version changes with them).
   */
  async changeSettings(
    operatorId: number,
    id: number,
    change: Partial<
      Pick<
        ZoneSettings,
        'http2' | 'forceSSLRedirectCode' | 'invalidDomainLimitCount' | 'tlsLimitCount' | 'challengeWorkBits'
      >
    >,
  ): Promise<ZoneSettings> {
    if (!(await this.zones.update(operatorId, id, change))) throw new AppError(101018);
    return this.settings(operatorId, id);
  }

  /** HTTP/3 can only be off (no QUIC in the nodes' nginx): `true` is a field error, not a no-op. */
  async setHttp3(operatorId: number, id: number, enable: boolean): Promise<ZoneSettings> {
    const settings = await this.settings(operatorId, id);
    if (enable) throw invalidFields([{ field: 'enable', key: 'http3Unsupported' }]);
    return settings;
  }

  /**
   * 201003 when the operator has as many zones as its account's zone limit allows (0 = no limit).
   * A zone made by a zone-restricted sub-account joins its assignment (and that of each restricted
   * sub-account above it), so the creator can work on it.
   */
  async create(operatorId: number, input: ZoneIn, creatorId?: number): Promise<Zone> {
    return onUniqueViolation(201002, async () => {
      const id = await this.deps.transactions.run(async () => {
        await this.deps.licenseLimits.check(operatorId, 'zones');
        const { limit, zones } = await this.zones.lockZoneLimit(operatorId);
        if (limit > 0 && zones >= limit) throw new AppError(201003, { extra: { limit } });
        const zoneId = await this.zones.insert(operatorId, { name: input.name.trim(), memo: input.memo });
        await this.deps.zoneSettings.insertPorts(zoneId, DEFAULT_ZONE_PORTS);
        if (creatorId !== undefined && creatorId !== operatorId) {
          await this.deps.accountZones.addToRestrictedChain(creatorId, zoneId);
        }
        return zoneId;
      });
      return this.get(operatorId, id);
    });
  }

  async update(operatorId: number, input: ZoneUpdateIn): Promise<Zone> {
    await onUniqueViolation(201002, async () => {
      if (!(await this.zones.update(operatorId, input.id, { name: input.name.trim(), memo: input.memo }))) {
        throw new AppError(101018);
      }
    });
    return this.get(operatorId, input.id);
  }

  async delete(operatorId: number, id: number): Promise<void> {
    const zone = await this.get(operatorId, id);
    if (zone.nodeCount > 0) throw new AppError(201001);
    // A product still uses one of the zone's groups (a node placed meanwhile is caught by the
    // nodes check of the next try).
    await onForeignKeyViolation(203001, async () => {
      if (!(await this.zones.delete(operatorId, id))) throw new AppError(101018);
    });
  }

  /**
   * All or nothing: every id must be an uninitialised node of this operator. With a group, the
   * nodes go on its default line under the group lines' own rule (placeOnLine): a node serves the
   * group's port type (a new node serves 7 until PUT client/nodes/portType says 4).
   */
  async initializeNodes(operatorId: number, ids: number[], zoneId: number, groupId: number | undefined): Promise<void> {
    await this.get(operatorId, zoneId);
    const unique = [...new Set(ids)];
    await this.deps.transactions.run(async () => {
      const nodesStillFit = await this.deps.capacity.before(operatorId, { nodes: unique }, { nameNode: true });
      const moved = await this.zones.initializeNodes(operatorId, unique, zoneId);
      if (moved !== unique.length)
        throw new AppError(101018, { extra: { reason: 'not every node is an uninitialised node of yours' } });
      if (groupId !== undefined) {
        const lines = this.deps.groupLines;
        const group = await lines.lockGroup(operatorId, zoneId, groupId);
        if (!group) throw new AppError(101018);
        await placeOnLine(lines, 'nodes', { operatorId, zoneId, groupId }, group.portType, DEFAULT_LINE, unique, 'ids');
        // The new nodes take the sites of the products using the group.
        await nodesStillFit();
      }
    });
  }

  /**
   * All or nothing: every id must be an initialised node of this operator, and none may still be
   * in a group (groups belong to a zone: 202003 until the node is taken out of its groups) nor be
   * named by a virtual node's record (202004 until the record is deleted).
   */
  async moveNodes(operatorId: number, ids: number[], zoneId: number): Promise<void> {
    await this.get(operatorId, zoneId);
    const unique = [...new Set(ids)];
    await this.deps.transactions.run(async () => {
      const found = await this.deps.nodes.placedNodes(operatorId, unique);
      requireEvery(found, unique, 'not every node is an initialised node of yours');
      const grouped = found.filter((n) => n.groupPortTypes.length > 0).map((n) => n.id);
      if (grouped.length > 0) throw new AppError(202003, { extra: { nodeIDs: grouped } });
      const named = found.filter((n) => n.inVirtualNode).map((n) => n.id);
      if (named.length > 0) throw new AppError(202004, { extra: { nodeIDs: named } });
      await this.zones.moveNodes(operatorId, unique, zoneId);
    });
  }
}
