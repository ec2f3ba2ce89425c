import type { DomainUpstream, SitePort } from '@rampart/contract';
import type { FailedNode, PortUpstreamRow, SitePortRow } from './site-ports.repository.js';

export function presentPortUpstream(u: PortUpstreamRow): DomainUpstream {
  return { id: u.id, ip: u.ip, port: u.port, weight: u.weight, backup: u.backup, status: u.enabled ? 1 : 0 };
}

/** `upstreams` of any of the ports presented; `failed` the nodes that could not listen on each port. */
export function presentSitePort(
  row: SitePortRow,
  upstreams: readonly PortUpstreamRow[],
  failed: ReadonlyMap<number, FailedNode[]>,
): SitePort {
  return {
    id: row.id,
    siteID: row.siteId,
    port: row.port,
    protocol: row.protocol,
    hashType: row.hashType,
    status: row.enabled ? 1 : 0,
    memo: row.memo,
    upstreams: upstreams.filter((u) => u.portId === row.id).map(presentPortUpstream),
    failedNodes: failed.get(row.id) ?? [],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
