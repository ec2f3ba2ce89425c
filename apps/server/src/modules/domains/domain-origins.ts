import { isIP, isOriginAddressAllowed, type UpstreamIn } from '@rampart/contract';
import { invalidFields } from '../../platform/http/validation.js';
import { NodeSockets } from '../nodes/node-sockets.js';
import type { NodeSocketsRepository } from '../nodes/node-sockets.repository.js';

/** One origin a request names, with the field that names it. */
export interface OriginEntry {
  field: string;
  ip: string;
  port: number;
  portMap?: boolean | undefined;
}

/** The origin entries of an upstream list, fields `<prefix>.<j>.ip`. */
export function upstreamOrigins(
  list: readonly UpstreamIn[],
  prefix = 'upstreams',
  portMap?: boolean | undefined,
): OriginEntry[] {
  return list.map((u, j) => ({ field: `${prefix}.${j}.ip`, ip: u.ip, port: u.port, portMap }));
}

/**
 * The origin policy of domain upstreams: IP origins the operator does not allow (SSRF policy)
 * and origins that are one of the operator's node sockets (NodeSockets) are refused, naming each
 * field. Host names pass here; the node refuses the ones that resolve to such addresses.
 */
export class OriginCheck {
  constructor(
    private readonly sockets: NodeSocketsRepository,
    /** Whether the operator allows origins on private addresses (PrivateOriginsService.allowsFor). */
    private readonly allowPrivateOrigins: (operatorId: number) => Promise<boolean>,
  ) {}

  /** The operator's node sockets. */
  async socketsOf(operatorId: number): Promise<NodeSockets> {
    return NodeSockets.of(await this.sockets.listening(operatorId));
  }

  async check(operatorId: number, entries: OriginEntry[]): Promise<void> {
    const sockets = await this.socketsOf(operatorId);
    const allowPrivate = await this.allowPrivateOrigins(operatorId);
    const bad: { field: string; key: 'originNotAllowed' | 'originIsNode' }[] = [];
    for (const e of entries) {
      // A host name is resolved and held to the same rule by the node, at each of its answers
      // (docs/decisions "Hostname origins"): what it resolves to here says nothing of there.
      if (!isIP(e.ip)) continue;
      if (!isOriginAddressAllowed(e.ip, allowPrivate)) bad.push({ field: e.field, key: 'originNotAllowed' });
      else if (sockets.isNodeSocket(e.ip, e.port, e.portMap)) bad.push({ field: e.field, key: 'originIsNode' });
    }
    if (bad.length > 0) throw invalidFields(bad);
  }
}
