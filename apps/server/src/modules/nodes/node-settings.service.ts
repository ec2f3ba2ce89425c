import { dailyTimeSchema, type NodeSwitch, type NodeSystem } from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { NodeRow, NodesRepository } from './nodes.repository.js';

type Settings = Parameters<NodesRepository['updatePlaced']>[2];

/** The operator's zones as this service reads them (the zones module's ZonesRepository): found or not. */
interface OperatorZones {
  find(operatorId: number, zoneId: number): Promise<unknown>;
}

/**
 * The operator's per-node settings and a zone's node list. Bulk changes are all or none over the
 * operator's initialised nodes: one id that is not one of them is 101018 and nothing changes.
 */
export class NodeSettingsService {
  constructor(
    private readonly nodes: NodesRepository,
    private readonly zones: OperatorZones,
    private readonly transactions: Transactions,
  ) {}

  private async update(operatorId: number, ids: number[], values: Settings, zoneId?: number): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(
        await this.nodes.updatePlaced(operatorId, unique, values, zoneId),
        unique,
        'not every node is an initialised node of yours',
      );
    });
  }

  setStatus(operatorId: number, ids: number[], status: NodeSwitch) {
    return this.update(operatorId, ids, { enabled: status === 'on' });
  }

  setMemo(operatorId: number, ids: number[], memo: string) {
    return this.update(operatorId, ids, { memo });
  }

  setMonitor(operatorId: number, ids: number[], monitor: boolean) {
    return this.update(operatorId, ids, { monitor });
  }

  /** `HH:MM` UTC or null; anything else is 202006 (Invalid Node Time). */
  setLogRotateTime(operatorId: number, ids: number[], time: string | null) {
    if (time !== null && !dailyTimeSchema.safeParse(time).success) throw new AppError(202006, { extra: { time } });
    return this.update(operatorId, ids, { logRotateTime: time });
  }

  /** 202005 when a node sits in a group of the other port type: take it out of that group first. */
  async setPortType(operatorId: number, ids: number[], portType: 7 | 4): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      const found = await this.nodes.placedNodes(operatorId, unique);
      requireEvery(found, unique, 'not every node is an initialised node of yours');
      const conflicting = found.filter((n) => n.groupPortTypes.some((t) => t !== portType)).map((n) => n.id);
      if (conflicting.length > 0) throw new AppError(202005, { extra: { nodeIDs: conflicting.sort((a, b) => a - b) } });
      await this.nodes.updatePlaced(operatorId, unique, { portType });
    });
  }

  /** The node of the operator in the zone, else 101018 (also for a zone that is not the operator's). */
  async node(operatorId: number, zoneId: number, id: number): Promise<NodeRow> {
    const row = await this.nodes.findPlaced(operatorId, zoneId, id);
    if (!row) throw new AppError(101018);
    return row;
  }

  async system(operatorId: number, zoneId: number, id: number): Promise<(NodeSystem & { reportedAt: string }) | null> {
    const row = await this.node(operatorId, zoneId, id);
    if (!row.system || !row.systemAt) return null;
    return { ...row.system, reportedAt: row.systemAt.toISOString() };
  }

  async zone(operatorId: number, zoneId: number): Promise<void> {
    if (!(await this.zones.find(operatorId, zoneId))) throw new AppError(101018);
  }

  async metaInZone(operatorId: number, zoneId: number) {
    await this.zone(operatorId, zoneId);
    return this.nodes.metaInZone(operatorId, zoneId);
  }

  rename(operatorId: number, zoneId: number, id: number, name: string) {
    return this.update(operatorId, [id], { name: name.trim() }, zoneId);
  }

  /**
   * Back to uninitialised, only when the node sits in no group (202003: groups belong to the zone)
   * and no virtual node's record names it (202004: the records belong to the zone's virtual nodes).
   */
  async remove(operatorId: number, zoneId: number, id: number): Promise<void> {
    await this.transactions.run(async () => {
      const [found] = await this.nodes.placedNodes(operatorId, [id], zoneId);
      if (!found) throw new AppError(101018);
      if (found.groupPortTypes.length > 0) throw new AppError(202003, { extra: { nodeIDs: [id] } });
      if (found.inVirtualNode) throw new AppError(202004, { extra: { nodeIDs: [id] } });
      await this.nodes.uninitialize(operatorId, id);
    });
  }
}
