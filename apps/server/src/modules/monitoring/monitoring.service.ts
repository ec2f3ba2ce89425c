import type { Locale, MonitorGroup, MonitorNode } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import { nodeConnection } from '../nodes/nodes.service.js';
import { MonitorGroupsRepository, type MonitorGroupValues } from './monitor-groups.repository.js';
import type { MonitorNodeRow, MonitorNodesRepository } from './monitor-nodes.repository.js';

interface GroupInput extends MonitorGroupValues {
  monitorIDs: number[];
  nodeIDs: number[];
}

/** Monitor nodes and monitor groups of one operator. */
export class MonitoringService {
  constructor(
    private readonly db: Db,
    private readonly monitors: MonitorNodesRepository,
    private readonly groups: MonitorGroupsRepository,
    private readonly clock: Clock,
  ) {}

  private connection(lastSeenAt: Date | null): 'online' | 'offline' {
    return nodeConnection(lastSeenAt, this.clock());
  }

  private async presentMonitors(rows: MonitorNodeRow[]): Promise<MonitorNode[]> {
    const groups = await this.monitors.groupsOf(rows.map((r) => r.id));
    return rows.map((row) => ({
      id: row.id,
      nodeId: row.nodeId,
      name: row.name,
      ips: row.ips,
      initialized: row.status === 'initialized',
      connection: this.connection(row.lastSeenAt),
      memo: row.memo,
      enabled: row.enabled,
      groups: groups.filter((g) => g.monitorId === row.id).map(({ id, name }) => ({ id, name })),
      createdAt: row.createdAt.toISOString(),
    }));
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
    const data = rows.map((row) => ({
      id: row.id,
      name: row.name,
      ips: row.ips,
      connection: this.connection(row.lastSeenAt),
      createdAt: row.createdAt.toISOString(),
    }));
    return { data, total };
  }

  private async getMonitor(operatorId: number, id: number): Promise<MonitorNode> {
    const row = await this.monitors.find(operatorId, id);
    if (!row) throw new AppError(101018);
    const [monitor] = await this.presentMonitors([row]);
    if (!monitor) throw new AppError(101018);
    return monitor;
  }

  async createMonitor(operatorId: number, input: { nodeID: number; memo: string; enabled: boolean }) {
    if (!(await this.monitors.ownsNode(operatorId, input.nodeID))) throw new AppError(101018);
    try {
      const id = await this.monitors.insert({
        ownerId: operatorId,
        nodeId: input.nodeID,
        memo: input.memo,
        enabled: input.enabled,
      });
      return await this.getMonitor(operatorId, id);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(101025);
      throw error;
    }
  }

  async updateMonitor(operatorId: number, input: { id: number; memo: string; enabled: boolean }) {
    if (!(await this.monitors.update(operatorId, input.id, { memo: input.memo, enabled: input.enabled }))) {
      throw new AppError(101018);
    }
    return this.getMonitor(operatorId, input.id);
  }

  async deleteMonitor(operatorId: number, id: number): Promise<void> {
    if (!(await this.monitors.delete(operatorId, id))) throw new AppError(101018);
  }

  private async presentGroups(rows: Awaited<ReturnType<MonitorGroupsRepository['list']>>['rows']) {
    const ids = rows.map((r) => r.id);
    const [monitors, targets] = await Promise.all([this.groups.monitorsOf(ids), this.groups.targetsOf(ids)]);
    return rows.map((row): MonitorGroup => {
      const mine = targets.filter((t) => t.groupId === row.id);
      const counts = { up: 0, down: 0, unknown: 0 };
      for (const target of mine) counts[target.state] += 1;
      return {
        id: row.id,
        name: row.name,
        memo: row.memo,
        enabled: row.enabled,
        intervalSeconds: row.intervalSeconds,
        timeoutSeconds: row.timeoutSeconds,
        failureThreshold: row.failureThreshold,
        monitors: monitors.filter((m) => m.groupId === row.id).map(({ id, name }) => ({ id, name })),
        targets: mine.map(({ id, name }) => ({ id, name })),
        counts,
        createdAt: row.createdAt.toISOString(),
      };
    });
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
  private async checkMembers(operatorId: number, input: GroupInput, locale: Locale) {
    const monitorIds = [...new Set(input.monitorIDs)];
    const nodeIds = [...new Set(input.nodeIDs)];
    const [monitors, targets] = await Promise.all([
      this.groups.ownedMonitors(operatorId, monitorIds),
      this.groups.ownedNodes(operatorId, nodeIds),
    ]);
    if (monitors.length !== monitorIds.length || targets.length !== nodeIds.length) throw new AppError(101018);
    const notReady = nodeIds.findIndex((id) => targets.find((t) => t.id === id)?.status !== 'initialized');
    if (notReady >= 0) throw invalidFields(locale, [{ field: `nodeIDs.${notReady}`, key: 'invalidValue' }]);
    return { monitorIds, nodeIds };
  }

  private values(input: GroupInput): MonitorGroupValues {
    return {
      name: input.name.trim(),
      memo: input.memo,
      enabled: input.enabled,
      intervalSeconds: input.intervalSeconds,
      timeoutSeconds: input.timeoutSeconds,
      failureThreshold: input.failureThreshold,
    };
  }

  async createGroup(operatorId: number, input: GroupInput, locale: Locale): Promise<MonitorGroup> {
    const { monitorIds, nodeIds } = await this.checkMembers(operatorId, input, locale);
    try {
      const id = await this.db.transaction(async (tx) => {
        const repo = new MonitorGroupsRepository(tx);
        const created = await repo.insert(operatorId, this.values(input));
        await repo.setMembers(created, monitorIds, nodeIds);
        return created;
      });
      return await this.getGroup(operatorId, id);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(101025);
      throw error;
    }
  }

  async updateGroup(operatorId: number, input: GroupInput & { id: number }, locale: Locale): Promise<MonitorGroup> {
    const { monitorIds, nodeIds } = await this.checkMembers(operatorId, input, locale);
    try {
      await this.db.transaction(async (tx) => {
        const repo = new MonitorGroupsRepository(tx);
        if (!(await repo.update(operatorId, input.id, this.values(input)))) throw new AppError(101018);
        await repo.setMembers(input.id, monitorIds, nodeIds);
      });
      return await this.getGroup(operatorId, input.id);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(101025);
      throw error;
    }
  }

  async deleteGroup(operatorId: number, id: number): Promise<void> {
    if (!(await this.groups.delete(operatorId, id))) throw new AppError(101018);
  }
}
