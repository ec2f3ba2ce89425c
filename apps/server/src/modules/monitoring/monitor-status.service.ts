import {
  MONITOR_LIMITS,
  type MonitorTarget,
  type MonitorTargetQuery,
  type NodeMonitorStatus,
  type NodeMonitorStatusQuery,
} from '@rampart/contract';
import type { MonitorStatusRepository } from './monitor-status.repository.js';
import { iso, presentNodeState, presentTarget } from './monitoring.presenter.js';

/** The operator's view of what the monitors recorded. */
export class MonitorStatusService {
  constructor(private readonly status: MonitorStatusRepository) {}

  /** A group's targets (the caller checked the group is the operator's) with their latest transitions. */
  async groupTargets(groupId: number, q: MonitorTargetQuery): Promise<{ data: MonitorTarget[]; total: number }> {
    const { rows, total } = await this.status.targets(groupId, q.state, q.page, q.pageSize);
    const history = await this.status.history(
      groupId,
      rows.map((r) => r.nodeId),
      MONITOR_LIMITS.historyPerTarget,
    );
    return { data: rows.map((row) => presentTarget(row, history)), total };
  }

  async nodeStates(operatorId: number, q: NodeMonitorStatusQuery) {
    const { rows, total } = await this.status.nodeStates(operatorId, q, q.page, q.pageSize);
    const groups = await this.status.groupStatesOf(
      operatorId,
      rows.map((r) => r.id),
    );
    return { data: rows.map((row) => presentNodeState(row, groups)), total };
  }

  /** Each node's state across the operator's groups, for the node list (`unmonitored` when none probes it). */
  async statesOf(operatorId: number, nodeIds: number[]): Promise<Map<number, NodeMonitorStatus>> {
    const rows = await this.status.statesOf(operatorId, nodeIds);
    const states = new Map<number, NodeMonitorStatus>(nodeIds.map((id) => [id, { state: 'unmonitored', since: null }]));
    for (const row of rows) states.set(row.nodeId, { state: row.state, since: iso(row.since) });
    return states;
  }
}
