import { isLogPart, LOG_TABLES, type LogPartRef, type LogTable, logPartStart } from '@rampart/contract';

/** The column that dates a row of each table kept by day (unix seconds): an event's time, a rollup's bucket. */
export const DATED_COLUMN: Readonly<Record<LogTable, 'ts' | 'bucket'>> = {
  events: 'ts',
  rollup_1m: 'bucket',
  rollup_5m: 'bucket',
  rollup_1h: 'bucket',
  rollup_1d: 'bucket',
  siterollup_5m: 'bucket',
  lowdims_1h: 'bucket',
  dims_1h: 'bucket',
  dims_1d: 'bucket',
  sitedims_1d: 'bucket',
};

/** A part as the stores put it into a statement: a table name of our own list, its column, the day's seconds. */
export interface CheckedPart {
  readonly table: LogTable;
  readonly column: 'ts' | 'bucket';
  /** `YYYYMMDD`, digits only. */
  readonly part: string;
  /** [start, end) of the UTC day, unix seconds. */
  readonly start: number;
  readonly end: number;
}

/**
 * The stores' own check of the parts the service hands them (the contract checked them already):
 * the table name put into a statement is the one of LOG_TABLES, never the caller's string, and the
 * part is eight digits naming a real day. Throws on anything else.
 */
export function checkedParts(items: readonly LogPartRef[]): CheckedPart[] {
  return items.map(({ table, part }) => {
    const own = LOG_TABLES.find((t) => t === table);
    if (own === undefined || !isLogPart(part)) throw new Error('dropParts: not a table and day of the store');
    const start = logPartStart(part);
    return { table: own, column: DATED_COLUMN[own], part, start, end: start + 86_400 };
  });
}
