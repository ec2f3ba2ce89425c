import {
  BLOCKING_DECISION_ACTIONS,
  CACHE_HIT_STATUSES,
  type EdgeEvent,
  type EventCacheStatus,
  type EventDecisionAction,
} from '@rampart/contract';

/**
 * The node's request counters for its Prometheus metrics (docs/decisions.md "Metrics"), counted by
 * the request events' process from the access log lines it already parses: nothing on nginx's
 * request path. The worker sends what it counted since its last message (`NodeCounts`); the agent
 * adds them up, so a restarted worker loses nothing already sent.
 */
export interface NodeCounts {
  /** Requests by status class (`2xx`, ...). */
  requests: Record<string, number>;
  /** Requests blocked, by the deciding action (`deny`, `drop`, `challenge`, ...; `blockList` for the block list). */
  blocks: Record<string, number>;
  /** Cache lookups: `hit` (HIT, STALE, UPDATING, REVALIDATED), `miss` (the rest with a cache status). */
  cache: Record<string, number>;
  /** Requests whose origin answered 5xx or could not be reached (502, 504 without an origin status). */
  upstreamErrors: number;
  /** Events the spool dropped because it was full. */
  spoolDropped: number;
}

export const emptyCounts = (): NodeCounts => ({
  requests: {},
  blocks: {},
  cache: {},
  upstreamErrors: 0,
  spoolDropped: 0,
});

const bump = (record: Record<string, number>, key: string, by = 1) => {
  record[key] = (record[key] ?? 0) + by;
};

/** Counts one request event into `counts`. */
export function countEvent(counts: NodeCounts, e: EdgeEvent): void {
  bump(counts.requests, `${Math.floor(e.status / 100)}xx`);
  if (e.fwKind === 'blockList') bump(counts.blocks, 'blockList');
  else if (BLOCKING_DECISION_ACTIONS.has(e.fwAction as EventDecisionAction)) bump(counts.blocks, e.fwAction);
  if (e.cacheStatus !== '')
    bump(counts.cache, CACHE_HIT_STATUSES.has(e.cacheStatus as EventCacheStatus) ? 'hit' : 'miss');
  if (e.upstreamStatus >= 500 || ((e.status === 502 || e.status === 504) && e.upstreamStatus === 0)) {
    counts.upstreamErrors += 1;
  }
}

/** Adds `delta` into `total`. */
export function addCounts(total: NodeCounts, delta: NodeCounts): void {
  for (const key of ['requests', 'blocks', 'cache'] as const) {
    for (const [k, v] of Object.entries(delta[key])) bump(total[key], k, v);
  }
  total.upstreamErrors += delta.upstreamErrors;
  total.spoolDropped += delta.spoolDropped;
}

export function isEmpty(counts: NodeCounts): boolean {
  return (
    counts.upstreamErrors === 0 &&
    counts.spoolDropped === 0 &&
    Object.keys(counts.requests).length === 0 &&
    Object.keys(counts.blocks).length === 0 &&
    Object.keys(counts.cache).length === 0
  );
}
