import type {
  MonitorGroup,
  MonitorGroupIn,
  MonitorGroupUpdateIn,
  MonitorNode,
  MonitorNodeIn,
  MonitorNodeUpdateIn,
} from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { onUniqueViolation } from '../../platform/db/errors.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import { nodeConnection } from '../../platform/node-connection.js';
import type { MonitorGroupRow, MonitorGroupsRepository, MonitorGroupValues } from './monitor-groups.repository.js';
import type { MonitorNodeRow, MonitorNodesRepository } from './monitor-nodes.repository.js';
import { presentCandidate, presentMonitor, presentMonitorGroup } from './monitoring.presenter.js';

/** Monitor nodes and monitor groups of one operator. */
export class MonitoringService {
  constructor(
    private readonly monitors: MonitorNodesRepository,
    private readonly groups: MonitorGroupsRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  private readonly connection = (lastSeenAt: Date | null): 'online' | 'offline' =>
    nodeConnection(lastSeenAt, this.clock());

  private async presentMonitors(rows: MonitorNodeRow[]): Promise<MonitorNode[]> {
    const groups = await this.monitors.groupsOf(rows.map((r) => r.id));
    return rows.map((row) => presentMonitor(row, groups, this.connection));
  }

  async listMonitors(operatorId: number, page: number, pageSize: number) {
    const { rows, total } = await this.monitors.list(operatorId, page, pageSize);
    return { data: await this.presentMonitors(rows), total };
  }

  metaMonitors(operatorId: number) {
    return this.monitors.meta(operatorId);
  }

  async candidates(operatorId: number, page: number, pageSize: number) {
    const { rows, total } = await this.monitors.candidates(operatorId, page, pageSize);
    return { data: rows.map((row) => presentCandidate(row, this.connection)), total };
  }

  private async getMonitor(operatorId: number, id: number): Promise<MonitorNode> {
    const row = await this.monitors.find(operatorId, id);
    if (!row) throw new AppError(101018);
    const [monitor] = await this.presentMonitors([row]);
    if (!monitor) throw new AppError(101018);
    return monitor;
  }

  async createMonitor(operatorId: number, input: MonitorNodeIn) {
    if (!(await this.monitors.ownsNode(operatorId, input.nodeID))) throw new AppError(101018);
    return onUniqueViolation(101025, async () => {
      const id = await this.monitors.insert({
        ownerId: operatorId,
        nodeId: input.nodeID,
        memo: input.memo,
        enabled: input.enabled,
      });
      return this.getMonitor(operatorId, id);
    });
  }

  async updateMonitor(operatorId: number, input: MonitorNodeUpdateIn) {
    if (!(await this.monitors.update(operatorId, input.id, { memo: input.memo, enabled: input.enabled }))) {
      throw new AppError(101018);
    }
    return this.getMonitor(operatorId, input.id);
  }

  async deleteMonitor(operatorId: number, id: number): Promise<void> {
    if (!(await this.monitors.delete(operatorId, id))) throw new AppError(101018);
  }

  private async presentGroups(rows: MonitorGroupRow[]): Promise<MonitorGroup[]> {
    const ids = rows.map((r) => r.id);
    const [monitors, targets] = await Promise.all([this.groups.monitorsOf(ids), this.groups.targetsOf(ids)]);
    return rows.map((row) => presentMonitorGroup(row, monitors, targets));
  }

  async listGroups(operatorId: number, page: number, pageSize: number) {
    const { rows, total } = await this.groups.list(operatorId, page, pageSize);
    return { data: await this.presentGroups(rows), total };
  }

  metaGroups(operatorId: number) {
    return this.groups.meta(operatorId);
  }

  /** The group of the operator, or 101018 (another operator's group answers exactly like a missing one). */
  async requireGroup(operatorId: number, id: number) {
    const row = await this.groups.find(operatorId, id);
    if (!row) throw new AppError(101018);
    return row;
  }

  private async getGroup(operatorId: number, id: number): Promise<MonitorGroup> {
    const [group] = await this.presentGroups([await this.requireGroup(operatorId, id)]);
    if (!group) throw new AppError(101018);
    return group;
  }

  /** Every monitor and target must be the operator's (101018); targets must be initialised (101003). */
  private async checkMembers(operatorId: number, input: MonitorGroupIn) {
    const monitorIds = [...new Set(input.monitorIDs)];
    const nodeIds = [...new Set(input.nodeIDs)];
    const [monitors, targets] = await Promise.all([
      this.groups.ownedMonitors(operatorId, monitorIds),
      this.groups.ownedNodes(operatorId, nodeIds),
    ]);
    if (monitors.length !== monitorIds.length || targets.length !== nodeIds.length) throw new AppError(101018);
    const notReady = nodeIds.findIndex((id) => targets.find((t) => t.id === id)?.status !== 'initialized');
    if (notReady >= 0) throw invalidFields([{ field: `nodeIDs.${notReady}`, key: 'invalidValue' }]);
    return { monitorIds, nodeIds };
  }

  private values(input: MonitorGroupIn): MonitorGroupValues {
    return {
      name: input.name.trim(),
      memo: input.memo,
      enabled: input.enabled,
      intervalSeconds: input.intervalSeconds,
      timeoutSeconds: input.timeoutSeconds,
      failureThreshold: input.failureThreshold,
    };
  }

  async createGroup(operatorId: number, input: MonitorGroupIn): Promise<MonitorGroup> {
    const { monitorIds, nodeIds } = await this.checkMembers(operatorId, input);
    return onUniqueViolation(101025, async () => {
      const id = await this.transactions.run(async () => {
        const created = await this.groups.insert(operatorId, this.values(input));
        await this.groups.setMembers(created, monitorIds, nodeIds);
        return created;
      });
      return this.getGroup(operatorId, id);
    });
  }

  async updateGroup(operatorId: number, input: MonitorGroupUpdateIn): Promise<MonitorGroup> {
    const { monitorIds, nodeIds } = await this.checkMembers(operatorId, input);
    return onUniqueViolation(101025, async () => {
      await this.transactions.run(async () => {
        if (!(await this.groups.update(operatorId, input.id, this.values(input)))) throw new AppError(101018);
        await this.groups.setMembers(input.id, monitorIds, nodeIds);
      });
      return this.getGroup(operatorId, input.id);
    });
  }

  async deleteGroup(operatorId: number, id: number): Promise<void> {
    if (!(await this.groups.delete(operatorId, id))) throw new AppError(101018);
  }
}
