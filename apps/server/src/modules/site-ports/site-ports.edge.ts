import { type EdgeStreamPort, RESERVED_NODE_PORTS, STREAM_PORTS_PER_NODE } from '@rampart/contract';
import type { SQL } from 'drizzle-orm';
import type { SitePortsRepository } from './site-ports.repository.js';

/**
 * The layer-4 ports one node serves: the enabled ports of the operator's serving sites (status
 * normal, not expired) on products using one of the node's groups (`nodeGroup`, a condition on
 * product_groups.group_id) of port type 4, with their enabled
 * upstreams. A port without an enabled non-backup upstream is left out (the API refuses that
 * state, 401008). The API keeps numbers apart per zone; should two still meet on this node (a
 * product given new groups), the zone's listen ports win, then the oldest port, so the node never
 * receives a configuration nginx would refuse.
 */
export async function edgeStreamPorts(
  repo: SitePortsRepository,
  ownerId: number,
  nodeGroup: SQL | undefined,
  listenPorts: readonly number[],
  now: Date,
): Promise<EdgeStreamPort[]> {
  const ports = await repo.servedPorts(ownerId, nodeGroup, now);
  if (ports.length === 0) return [];
  const upstreams = await repo.enabledUpstreamsOf(ports.map((p) => p.id));
  const byPort = new Map<number, EdgeStreamPort['upstreams']>();
  for (const u of upstreams) {
    const list = byPort.get(u.portId) ?? [];
    list.push({ ip: u.ip, port: u.port, weight: u.weight, backup: u.backup });
    byPort.set(u.portId, list);
  }
  const taken = new Set<number>([...listenPorts, ...RESERVED_NODE_PORTS]);
  const out: EdgeStreamPort[] = [];
  for (const p of ports) {
    const list = byPort.get(p.id) ?? [];
    if (taken.has(p.port) || !list.some((u) => !u.backup)) continue;
    taken.add(p.port);
    out.push({
      id: p.id,
      port: p.port,
      protocol: p.protocol,
      balance: p.hashType === 1 ? 'ip_hash' : 'round_robin',
      upstreams: list,
    });
    if (out.length === STREAM_PORTS_PER_NODE) break;
  }
  return out.sort((a, b) => a.port - b.port);
}
