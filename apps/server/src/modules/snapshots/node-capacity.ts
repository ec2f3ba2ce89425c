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
 * Most domains one node may serve: the data plane as entries (plane.service.ts) has no document
 * limit, so this is what the control plane holds a node to (docs/decisions.md "The data plane's
 * limit"). A node whose agent still polls whole snapshots gets at most DATA_PLANE_LIMITS.domains of
 * them: the snapshot leaves out whole sites beyond it and the node list names them.
 */
export const NODE_DOMAINS_MAX = 200_000;

/**
 * The domain limit of a node (NODE_DOMAINS_MAX; lower when the installation says so): every write
 * that adds domains to a node or moves sites onto it is checked here, inside the write's transaction.
 *
 * Use: `const check = await capacity.before(operatorId, scope)` first in the transaction (it takes
 * the operator's capacity lock, so concurrent writers count in turn, and notes the nodes' loads),
 * then the write, then `await check()`: 401002 when a node ends over the limit and the write raised
 * its load. A node already over (the limit was lowered) keeps accepting writes that do not add to it.
 */
export class NodeCapacity {
  constructor(
    readonly domainLimit: number = NODE_DOMAINS_MAX,
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
