import type { LuaOp, LuaPlane } from '../../data-plane/lua-plane.js';
import { OriginResolver, type OriginResolverOptions } from '../../data-plane/origin-resolver.js';
import type { Logger } from '../log.js';

/**
 * The plane's origin host names as the node resolves them (docs/decisions "Hostname origins"):
 * asked when a plane names them and again as their answers expire; a name with no allowed address
 * is logged once per change and reported with the node's status until it resolves again.
 */
export class PlaneOrigins {
  private readonly resolver: OriginResolver;
  /** The names that resolve to no allowed address, and why ('' when none). */
  problems = '';
  /** How often the plane's names are checked for an answer that expired. */
  readonly checkEveryMs: number;

  constructor(
    options: OriginResolverOptions | undefined,
    private readonly log: Logger,
    private readonly reportStatus: () => void,
  ) {
    this.resolver = new OriginResolver(options);
    this.checkEveryMs = Math.max(1, options?.minTtlSeconds ?? 5) * 1000;
  }

  /** Whether a name of `plane` has an answer to ask again. */
  due(plane: LuaPlane): boolean {
    return this.resolver.due(plane.hostNames()).length > 0;
  }

  /**
   * Asks again for the names of `plane` that are due and rebuilds the records of the domains whose
   * names answered otherwise (every domain naming one when `all`); answers those changes.
   */
  async resolve(plane: LuaPlane, all: boolean): Promise<LuaOp[]> {
    // The operator's private-origin choice travels in the meta: a change asks every name again.
    this.resolver.allowByOperator(plane.meta.allowPrivateOrigins === true);
    const names = plane.hostNames();
    const changed = names.size === 0 ? [] : await this.resolver.refresh(names);
    const problems: string[] = [];
    for (const name of names) {
      const problem = this.resolver.lookup(name)?.problem ?? '';
      if (problem === '') continue;
      problems.push(problem);
      if (changed.includes(name)) this.log('warn', 'plane.origin_refused', { problem });
    }
    const text = problems.length > 0 ? `origins not served: ${problems.join('; ')}`.slice(0, 1000) : '';
    if (text !== this.problems) {
      this.problems = text;
      this.reportStatus();
    }
    return plane.resolveOrigins(this.resolver, all ? null : new Set(changed));
  }
}

/** Ops of one push with a key at most once: a later op of a key replaces an earlier one. */
export function mergeOps(first: LuaOp[], then: LuaOp[]): LuaOp[] {
  if (then.length === 0) return first;
  const byKey = new Map<string, LuaOp>();
  for (const op of [...first, ...then]) {
    byKey.delete(op[0]);
    byKey.set(op[0], op);
  }
  return [...byKey.values()];
}
