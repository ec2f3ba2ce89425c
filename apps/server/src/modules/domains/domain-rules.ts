import type { DomainIn, DomainSettingsIn, UpstreamIn } from '@rampart/contract';
import { AppError } from '../../platform/errors/app-error.js';
import type { DomainRow, NewUpstream, UpstreamRow } from './domains.repository.js';

/** An upstream as the repository stores it (the address in lower case). */
export function upstreamRow(u: UpstreamIn): Required<NewUpstream> {
  return { ip: u.ip.toLowerCase(), port: u.port, weight: u.weight, backup: u.backup, enabled: u.status === 1 };
}

/** The edge needs one enabled upstream that is not a backup to send traffic to (401008 otherwise). */
export function servable(list: readonly { backup: boolean; enabled: boolean }[]): boolean {
  return list.some((u) => u.enabled && !u.backup);
}

/**
 * With the port map on, a client on a listener of the scheme's protocol reaches the origin on its
 * own port. The well-known port of the other protocol cannot be right there (TLS to port 80, plain
 * HTTP to 443): 401003 naming the first such port and its listener type (`extra.port`, `extra.portType`).
 */
export function checkPortMap(scheme: 0 | 1, ports: { port: number; portType: 'http' | 'https' }[]) {
  const mapped = scheme === 1 ? 'https' : 'http';
  const wrong = scheme === 1 ? 80 : 443;
  const bad = ports.find((p) => p.portType === mapped && p.port === wrong);
  if (bad) throw new AppError(401003, { extra: { port: bad.port, portType: bad.portType } });
}

/** Everything of a domain but its name, status and certificate, as input for a new domain. */
export function settingsOf(
  row: DomainRow,
  upstreams: UpstreamRow[],
): Omit<DomainSettingsIn, 'status' | 'certificateID'> {
  return {
    upstreams: upstreams.map((u) => ({
      ip: u.ip,
      port: u.port,
      weight: u.weight,
      backup: u.backup,
      status: u.enabled ? 1 : 0,
    })),
    scheme: row.scheme,
    hashType: row.hashType,
    hostName: row.hostName,
    forceSSL: row.forceSSL,
    autoSSL: row.autoSSL,
    portMap: row.portMap,
    tags: row.tags,
  };
}

/** The settings of a domain made by name only (createSimple). */
export const SIMPLE_DEFAULTS = {
  scheme: 0,
  hashType: 0,
  hostName: '',
  forceSSL: false,
  autoSSL: false,
  portMap: false,
  certificateID: 0,
  status: 1,
  tags: [] as string[],
} as const satisfies Omit<DomainIn, 'name' | 'upstreams'>;
