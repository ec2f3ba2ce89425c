import { parseIP } from '@rampart/contract';
import { DEFAULT_LISTEN } from '../snapshots/snapshot-plane.js';
import type { NodeListening } from './node-sockets.repository.js';

/**
 * The listening sockets of an operator's nodes, which no customer origin may be: every address a
 * node registered or reported, on every listen port of the operator's zones, the default ports of a
 * node not initialised yet, and every layer-4 port of its customers' sites (a node may serve any). An origin there would send the edge's
 * requests back into the edge (a loop) or at its own servers; the edge refuses such an upstream as
 * well (lua/rampart/node_self.lua), this is the refusal at the API, where the customer sees it.
 * Addresses compare by value: an IPv4 address and its IPv4-mapped IPv6 form are the same.
 */
export class NodeSockets {
  constructor(
    private readonly addresses: ReadonlySet<string>,
    private readonly ports: ReadonlySet<number>,
  ) {}

  /** The operator's node sockets (none when it has no node yet), with `morePorts` about to open. */
  static of(listening: NodeListening, morePorts: readonly number[] = []): NodeSockets {
    const addresses = new Set(listening.ips.flatMap((ips) => ips.map(addressKey)).filter((k) => k !== null));
    // A node not initialised yet listens on the default ports.
    const ports = [...DEFAULT_LISTEN.httpPorts, ...DEFAULT_LISTEN.httpsPorts, ...listening.zonePorts];
    ports.push(...listening.sitePorts);
    return new NodeSockets(addresses, new Set([...ports, ...morePorts]));
  }

  /** Whether `ip` is one of the nodes' addresses. */
  isNodeAddress(ip: string): boolean {
    const key = addressKey(ip);
    return key !== null && this.addresses.has(key);
  }

  /**
   * Whether an origin at `ip`:`port` is one of the nodes' listening sockets; `portMap` (the origin
   * port is the one the client connected to, always a listen port) makes any port one.
   */
  isNodeSocket(ip: string, port: number, portMap = false): boolean {
    return (portMap || this.ports.has(port)) && this.isNodeAddress(ip);
  }
}

/** A comparable key for an IP literal (IPv4-mapped IPv6 as IPv4); null when it is none. */
function addressKey(ip: string): string | null {
  const parsed = parseIP(ip);
  if (parsed === null) return null;
  if (parsed.version === 6 && parsed.value >> 32n === 0xffffn) return `4:${parsed.value & 0xffffffffn}`;
  return `${parsed.version}:${parsed.value}`;
}
