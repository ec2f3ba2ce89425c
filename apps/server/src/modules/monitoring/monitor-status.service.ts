import { MONITOR_LIMITS, type MonitorTarget, type NodeMonitorStatus } from '@rampart/contract';
import type { MonitorStatusRepository, NodeMonitorState } from './monitor-status.repository.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The operator's view of what the monitors recorded. */
export class MonitorStatusService {
  constructor(private readonly status: MonitorStatusRepository) {}

  /** A group's targets (the caller checked the group is the operator's) with their latest transitions. */
  async groupTargets(
    groupId: number,
    q: { state?: 'up' | 'down' | 'unknown' | undefined; page: number; pageSize: number },
  ): Promise<{ data: MonitorTarget[]; total: number }> {
    const { rows, total } = await this.status.targets(groupId, q.state, q.page, q.pageSize);
    const history = await this.status.history(
      groupId,
      rows.map((r) => r.nodeId),
      MONITOR_LIMITS.historyPerTarget,
    );
    const data = rows.map((row) => ({
      nodeId: row.nodeId,
      name: row.name,
      ips: row.ips,
      zoneName: row.zoneName,
      state: row.state,
      since: iso(row.since),
      checkedAt: iso(row.checkedAt),
      reason: row.reason,
      history: history
        .filter((h) => h.nodeId === row.nodeId)
        .map((h) => ({ state: h.state, at: h.at.toISOString(), reason: h.reason })),
    }));
    return { data, total };
  }

  async nodeStates(
    operatorId: number,
    q: { state?: NodeMonitorState | undefined; value?: string | undefined; page: number; pageSize: number },
  ) {
    const { rows, total } = await this.status.nodeStates(operatorId, q, q.page, q.pageSize);
    const groups = await this.status.groupStatesOf(
      operatorId,
      rows.map((r) => r.id),
    );
    const data = rows.map((row) => ({
      id: row.id,
      name: row.name,
      ips: row.ips,
      zoneName: row.zoneName,
      state: row.state,
      since: iso(row.since),
      groups: groups
        .filter((g) => g.nodeId === row.id)
        .map((g) => ({
          id: g.id,
          name: g.name,
          state: g.state,
          since: iso(g.since),
          checkedAt: iso(g.checkedAt),
          reason: g.reason,
        })),
    }));
    return { data, total };
  }

  /** Each node's state across the operator's groups, for the node list (`unmonitored` when none probes it). */
  async statesOf(operatorId: number, nodeIds: number[]): Promise<Map<number, NodeMonitorStatus>> {
    const rows = await this.status.statesOf(operatorId, nodeIds);
    const states = new Map<number, NodeMonitorStatus>(nodeIds.map((id) => [id, { state: 'unmonitored', since: null }]));
    for (const row of rows) states.set(row.nodeId, { state: row.state, since: iso(row.since) });
    return states;
  }
}
