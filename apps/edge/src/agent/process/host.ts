import { hostname, networkInterfaces } from 'node:os';
import { isIP } from '@rampart/contract';

/** The most addresses a node reports (the contract's limit). */
const MAX_IPS = 32;

/**
 * The node's name as the contract accepts it (letters, digits, dots and dashes, up to 253):
 * other characters become dashes.
 */
export function reportedHostname(name: string = hostname()): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9.-]/g, '-')
    .slice(0, 253)
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  return cleaned === '' ? 'rampart-edge' : cleaned;
}

/**
 * The node's addresses: every non-internal interface address (IPv4 first, IPv6 link-local
 * skipped), or 127.0.0.1 when there is none.
 */
export function reportedIps(): string[] {
  const v4: string[] = [];
  const v6: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) {
      if (info.internal || !isIP(info.address)) continue;
      if (info.family === 'IPv4') v4.push(info.address);
      else if (!/^fe[89ab]/i.test(info.address)) v6.push(info.address);
    }
  }
  const ips = [...new Set([...v4, ...v6])].slice(0, MAX_IPS);
  return ips.length > 0 ? ips : ['127.0.0.1'];
}
