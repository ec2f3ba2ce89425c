import {
  AGGREGATE_BATCH_COLLAPSED_MAX,
  AGGREGATE_BATCH_JSON_MAX_BYTES,
  AGGREGATE_BATCH_MINUTES_MAX,
  type AggregateBatch,
} from '../routes/analytics-aggregates.js';
import type { TakenAggregates } from './minute-aggregator.js';

/** A batch before the spool names it (batchId) and gives it the dropped count it carries. */
export type AggregateBatchBody = Omit<AggregateBatch, 'batchId' | 'dropped'>;

export interface AggregateBatchLimits {
  maxMinutes: number;
  maxCollapsed: number;
  /** Most UTF-8 bytes of a batch's JSON (the records' own; the envelope is well under a kilobyte). */
  maxJsonBytes: number;
}

export const AGGREGATE_BATCH_LIMITS: AggregateBatchLimits = {
  maxMinutes: AGGREGATE_BATCH_MINUTES_MAX,
  maxCollapsed: AGGREGATE_BATCH_COLLAPSED_MAX,
  maxJsonBytes: AGGREGATE_BATCH_JSON_MAX_BYTES - 1024,
};

const encoder = new TextEncoder();
const bytesOf = (value: unknown) => encoder.encode(JSON.stringify(value)).length + 1;

/**
 * Cuts finished aggregates into batches within the schema's limits, in order: minute records
 * first, then the collapsed blocks, each batch as full as the limits let it be. A record is
 * whole in one batch (each is a partial sum of its own, so any cut is a valid one); the schema's
 * bounds on a record keep it far below the byte limit. Nothing taken: no batch.
 */
export function packAggregates(
  taken: TakenAggregates,
  limits: AggregateBatchLimits = AGGREGATE_BATCH_LIMITS,
): AggregateBatchBody[] {
  const batches: AggregateBatchBody[] = [];
  let current: AggregateBatchBody | null = null;
  let bytes = 0;
  const room = (size: number, kind: 'minutes' | 'collapsed'): AggregateBatchBody => {
    const full =
      current === null ||
      bytes + size > limits.maxJsonBytes ||
      (kind === 'minutes'
        ? current.minutes.length >= limits.maxMinutes
        : current.collapsed.length >= limits.maxCollapsed);
    if (full) {
      current = { closedThrough: taken.closedThrough, minutes: [], collapsed: [] };
      batches.push(current);
      bytes = 0;
    }
    bytes += size;
    return current as AggregateBatchBody;
  };
  for (const record of taken.minutes) room(bytesOf(record), 'minutes').minutes.push(record);
  for (const record of taken.collapsed) room(bytesOf(record), 'collapsed').collapsed.push(record);
  return batches;
}
