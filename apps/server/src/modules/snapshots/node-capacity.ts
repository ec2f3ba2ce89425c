import { DATA_PLANE_LIMITS } from '@rampart/contract';
import { AppError } from '../../platform/errors/app-error.js';
import type { CapacityScope, NodeCapacityRepository } from './node-capacity.repository.js';

export type { CapacityScope } from './node-capacity.repository.js';

interface CapacityOptions {
  /** Name the node and its load in the refusal (operator calls; a customer never sees node ids). */
  nameNode?: boolean;
}

/** Checks, after the write, that no node ended over the limit by it (401002). */
type CapacityCheck = () => Promise<void>;

/**
 * The data-plane limit of a node (DATA_PLANE_LIMITS.domains; lower when the installation says so):
 * a node's snapshot cannot carry more domains, so every write that adds domains to a node or moves
 * sites onto it is checked here, inside the write's transaction.
 *
 * Use: `const check = await capacity.before(operatorId, scope)` first in the transaction (it takes
 * the operator's capacity lock, so concurrent writers count in turn, and notes the nodes' loads),
 * then the write, then `await check()`: 401002 when a node ends over the limit and the write raised
 * its load. A node already over (the limit was lowered) keeps accepting writes that do not add to it.
 */
export class NodeCapacity {
  constructor(
    readonly domainLimit: number = DATA_PLANE_LIMITS.domains,
    private readonly repository: NodeCapacityRepository,
  ) {}

  /** Runs in the current transaction (the injected repository's scoped database). */
  async before(ownerId: number, scope: CapacityScope, options: CapacityOptions = {}): Promise<CapacityCheck> {
    const repository = this.repository;
    await repository.lock(ownerId);
    const start = await repository.loads(ownerId, scope);
    return async (): Promise<void> => {
      const end = await repository.loads(ownerId, scope);
      const over = [...end]
        .filter(([id, n]) => n > this.domainLimit && n > (start.get(id) ?? 0))
        .sort(([a], [b]) => a - b)[0];
      if (over) {
        throw new AppError(401002, {
          extra: {
            scope: 'node',
            limit: this.domainLimit,
            ...(options.nameNode ? { nodeID: over[0], domains: over[1] } : {}),
          },
        });
      }
    };
  }
}
