import type { InitializedNode } from '@rampart/contract';
import { nodeConnection } from '../../platform/node-connection.js';
import type { InitializedNodeRow, NodeRow } from './nodes.repository.js';

export function presentUninitializedNode(row: NodeRow) {
  return {
    id: row.id,
    name: row.name,
    ips: row.ips,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
  };
}

/**
 * The plane sequence a node holds — the later of its status report and its last poll here — and
 * its plane's last change; both '' for a node that takes the snapshot's data plane (it reports none
 * and polls no plane).
 */
function planeVersions(reported: string, plane: { current: string; held: string | null }) {
  const candidates = [reported, plane.held ?? ''].filter((v) => v !== '');
  if (candidates.length === 0) return { appliedPlane: '', currentPlane: '' };
  const appliedPlane = candidates.reduce((a, b) => (BigInt(b) > BigInt(a) ? b : a));
  return { appliedPlane, currentPlane: plane.current };
}

/**
 * An initialised node as the operator sees it, with its snapshot's state (SnapshotsService.state)
 * and, for each port it could not listen on, the site of that port (`siteOfPort`).
 */
export function presentInitializedNode(
  row: InitializedNodeRow,
  state: { snapshot: { version: string } | null; problem: string },
  plane: { current: string; held: string | null },
  siteOfPort: ReadonlyMap<number, number>,
  now: number,
): InitializedNode {
  return {
    id: row.id,
    name: row.name,
    ips: row.ips,
    version: row.version,
    zoneId: row.zoneId ?? 0,
    zoneName: row.zoneName,
    groups: row.groups,
    appliedVersion: row.appliedVersion,
    currentVersion: state.snapshot?.version ?? '',
    ...planeVersions(row.appliedPlane, plane),
    lastError: row.lastError,
    snapshotError: state.problem,
    failedPorts: row.failedPorts.map((f) => ({
      kind: f.kind,
      port: f.port,
      protocol: f.protocol,
      portID: f.id ?? null,
      siteID: f.id !== undefined ? (siteOfPort.get(f.id) ?? null) : null,
      error: f.error,
    })),
    connection: nodeConnection(row.lastSeenAt, now),
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    status: row.enabled ? 'on' : 'off',
    memo: row.memo,
    monitor: row.monitor,
    portType: row.portType,
    logRotateTime: row.logRotateTime,
    upgradeStatus: row.upgradeStatus,
    subNodeCount: row.subNodeCount,
    dnsStatus: row.groups.length > 0 ? 'recorded' : 'none',
  };
}
