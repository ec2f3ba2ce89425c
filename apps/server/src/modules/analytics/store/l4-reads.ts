import type { L4Outcome } from '@rampart/contract';
import type { AnalyticsStore, L4StoredDim } from '../analytics-store.js';
import { int, ints } from './statistics-sql.js';

/**
 * The layer-4 counters' reads (`l4_counters`; docs/decisions.md "Layer-4 counters"): sums of one
 * stored dimension's rows of some sites over whole minutes, by outcome, by value or by step. The
 * sites and times are integers checked here, the dimension and outcome constant names: no value
 * of a request enters a statement. Both engines run the same text.
 */

/** Which rows a read sums: the sites' (none: no rows), one stored dimension, buckets in [start, end). */
export interface L4Rows {
  siteIds: readonly number[];
  dim: L4StoredDim;
  /** Unix seconds; the bucket a counter row counts is a minute's start. */
  start: number;
  end: number;
}

/** Packets and bytes of one outcome. */
export interface L4Sum {
  outcome: L4Outcome;
  packets: number;
  bytes: number;
}

const outcomeOf = (value: unknown): L4Outcome => (value === 'pass' ? 'pass' : 'drop');

export class L4Reads {
  constructor(private readonly store: Pick<AnalyticsStore, 'query'>) {}

  private where(rows: L4Rows): string {
    const dim = L4_DIM_NAMES[rows.dim];
    return `site_id IN (${ints(rows.siteIds)}) AND dim = '${dim}' AND bucket >= ${int(rows.start)} AND bucket < ${int(rows.end)}`;
  }

  /** The rows' packets and bytes per outcome (an outcome without rows is absent). */
  async outcomes(rows: L4Rows): Promise<L4Sum[]> {
    if (rows.siteIds.length === 0) return [];
    const found = await this.store.query(
      `SELECT outcome, sum(packets) AS packets, sum(bytes) AS bytes FROM l4_counters WHERE ${this.where(rows)} GROUP BY outcome`,
    );
    return found.map((r) => ({ outcome: outcomeOf(r.outcome), packets: Number(r.packets), bytes: Number(r.bytes) }));
  }

  /** The rows' packets and bytes per value and outcome, in no particular order. */
  async valueOutcomes(rows: L4Rows): Promise<(L4Sum & { value: string })[]> {
    if (rows.siteIds.length === 0) return [];
    const found = await this.store.query(
      `SELECT value, outcome, sum(packets) AS packets, sum(bytes) AS bytes FROM l4_counters WHERE ${this.where(rows)} GROUP BY value, outcome`,
    );
    return found.map((r) => ({
      value: String(r.value),
      outcome: outcomeOf(r.outcome),
      packets: Number(r.packets),
      bytes: Number(r.bytes),
    }));
  }

  /**
   * The rows' bytes per step of `stepSeconds` (`time`: the step's start, a multiple of the step)
   * and per outcome (`by` 'outcome') or per value (`by` 'value', of one outcome when `outcome`).
   */
  async steps(
    rows: L4Rows,
    stepSeconds: number,
    by: 'outcome' | 'value',
    outcome?: L4Outcome,
  ): Promise<{ time: number; key: string; bytes: number }[]> {
    if (rows.siteIds.length === 0) return [];
    const step = int(stepSeconds);
    const only = by === 'value' && outcome ? ` AND outcome = '${outcome === 'pass' ? 'pass' : 'drop'}'` : '';
    const found = await this.store.query(
      `SELECT bucket - bucket % ${step} AS t, ${by} AS k, sum(bytes) AS bytes FROM l4_counters ` +
        `WHERE ${this.where(rows)}${only} GROUP BY t, k`,
    );
    return found.map((r) => ({ time: Number(r.t), key: String(r.k), bytes: Number(r.bytes) }));
  }
}

/** The stored dimensions' names as they reach a statement: constants, never the caller's text. */
const L4_DIM_NAMES: Readonly<Record<L4StoredDim, string>> = {
  protocol: 'protocol',
  tcpFlags: 'tcpFlags',
  source: 'source',
  country: 'country',
  asn: 'asn',
};
