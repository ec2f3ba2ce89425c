import { isIPv6 } from 'node:net';
import { SUB_NODE_LIMIT, type SubNode, type SubNodeIpIn } from '@rampart/contract';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { NodesRepository } from '../nodes/nodes.repository.js';
import { presentSubNode } from './sub-nodes.presenter.js';
import type { SubNodesRepository } from './sub-nodes.repository.js';

/** One spelling per address: IPv6 in the compressed lower-case form (as a URL host prints it). */
export function canonicalIp(ip: string): string {
  return isIPv6(ip) ? new URL(`http://[${ip}]/`).hostname.slice(1, -1) : ip;
}

/**
 * Sub-nodes of the operator's initialised nodes (contract's routes/sub-nodes.ts). Every change runs
 * in one transaction with the node's row locked, so the per-node limit holds under concurrent calls;
 * the unique index on (owner, address) settles a race between two nodes.
 */
export class SubNodesService {
  constructor(
    private readonly subs: SubNodesRepository,
    private readonly nodes: NodesRepository,
    private readonly transactions: Transactions,
  ) {}

  private async inTx<T>(operatorId: number, zoneId: number, nodeId: number, work: () => Promise<T>) {
    try {
      return await this.transactions.run(async () => {
        const [found] = await this.nodes.placedNodes(operatorId, [nodeId], zoneId);
        if (!found) throw new AppError(101018);
        return work();
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(101025, { extra: { reason: 'address already used' } });
      throw e;
    }
  }

  private async refuseTaken(operatorId: number, ips: string[], exceptId?: number) {
    const taken = await this.subs.taken(operatorId, ips, exceptId);
    if (taken.length > 0) throw new AppError(101025, { extra: { ips: taken } });
  }

  async list(operatorId: number, zoneId: number, nodeId: number): Promise<SubNode[]> {
    return this.inTx(operatorId, zoneId, nodeId, async () =>
      (await this.subs.list(operatorId, nodeId)).map(presentSubNode),
    );
  }

  /** All or none: 101025 when an address repeats or is used, 202002 past the node's limit. */
  async create(operatorId: number, zoneId: number, nodeId: number, ips: string[], memo: string): Promise<SubNode[]> {
    const wanted = ips.map(canonicalIp);
    const repeated = wanted.filter((ip, i) => wanted.indexOf(ip) !== i);
    if (repeated.length > 0) throw new AppError(101025, { extra: { ips: [...new Set(repeated)].sort() } });
    return this.inTx(operatorId, zoneId, nodeId, async () => {
      if ((await this.subs.countOf(operatorId, nodeId)) + wanted.length > SUB_NODE_LIMIT) {
        throw new AppError(202002, { extra: { limit: SUB_NODE_LIMIT } });
      }
      await this.refuseTaken(operatorId, wanted);
      return (await this.subs.insert(operatorId, nodeId, wanted, memo.trim())).map(presentSubNode);
    });
  }

  /** All or none: an id that is not a sub-node of this node is 101018. */
  async remove(operatorId: number, zoneId: number, nodeId: number, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.inTx(operatorId, zoneId, nodeId, async () => {
      requireEvery(
        await this.subs.delete(operatorId, nodeId, unique),
        unique,
        'not every id is a sub-node of this node',
      );
    });
  }

  async updateIp(operatorId: number, zoneId: number, nodeId: number, body: SubNodeIpIn): Promise<SubNode> {
    const ip = canonicalIp(body.ip);
    return this.inTx(operatorId, zoneId, nodeId, async () => {
      await this.refuseTaken(operatorId, [ip], body.id);
      const row = await this.subs.update(operatorId, nodeId, body.id, { ip, memo: body.memo?.trim() });
      if (!row) throw new AppError(101018);
      return presentSubNode(row);
    });
  }
}
