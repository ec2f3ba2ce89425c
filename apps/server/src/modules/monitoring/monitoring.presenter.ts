import type { MonitorGroup, MonitorNode, MonitorTarget } from '@rampart/contract';
import type { MonitorGroupRow, MonitorGroupsRepository } from './monitor-groups.repository.js';
import type { MonitorNodeRow, MonitorNodesRepository } from './monitor-nodes.repository.js';
import type { MonitorStatusRepository } from './monitor-status.repository.js';

type Connection = (lastSeenAt: Date | null) => 'online' | 'offline';

/** A moment as the contract writes it, or null. */
export const iso = (d: Date | null) => d?.toISOString() ?? null;

export function presentMonitor(
  row: MonitorNodeRow,
  groups: Awaited<ReturnType<MonitorNodesRepository['groupsOf']>>,
  connection: Connection,
): MonitorNode {
  return {
    id: row.id,
    nodeId: row.nodeId,
    name: row.name,
    ips: row.ips,
    initialized: row.status === 'initialized',
    connection: connection(row.lastSeenAt),
    memo: row.memo,
    enabled: row.enabled,
    groups: groups.filter((g) => g.monitorId === row.id).map(({ id, name }) => ({ id, name })),
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentCandidate(
  row: Awaited<ReturnType<MonitorNodesRepository['candidates']>>['rows'][number],
  connection: Connection,
) {
  return {
    id: row.id,
    name: row.name,
    ips: row.ips,
    connection: connection(row.lastSeenAt),
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentMonitorGroup(
  row: MonitorGroupRow,
  monitors: Awaited<ReturnType<MonitorGroupsRepository['monitorsOf']>>,
  targets: Awaited<ReturnType<MonitorGroupsRepository['targetsOf']>>,
): MonitorGroup {
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
}

/** A group's target with its latest transitions (`history`: the group's, newest first). */
export function presentTarget(
  row: Awaited<ReturnType<MonitorStatusRepository['targets']>>['rows'][number],
  history: Awaited<ReturnType<MonitorStatusRepository['history']>>,
): MonitorTarget {
  return {
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
  };
}

/** A node's monitoring state with its state in each of the operator's groups. */
export function presentNodeState(
  row: Awaited<ReturnType<MonitorStatusRepository['nodeStates']>>['rows'][number],
  groups: Awaited<ReturnType<MonitorStatusRepository['groupStatesOf']>>,
) {
  return {
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
  };
}
