import {
  BIGINT,
  DOUBLE,
  type DuckDBConnection,
  DuckDBDataChunk,
  type DuckDBType,
  DuckDBVector,
  INTEGER,
  VARCHAR,
} from '@duckdb/node-api';

/**
 * Rows into a DuckDB table a column at a time (data chunks of DuckDB's vector size through one
 * appender), instead of one appender call per value: a node-minute of aggregates is ~580,000
 * dimension rows of 12 values. A column is its SQL type and how a row gives its value; DOUBLE
 * holds the counters of staging tables exactly (integers below 2^53) without a BigInt per value;
 * BIGINT takes a bigint per value. The table's columns must be these types, in this order (an
 * appender does not cast).
 */
export type DuckDbColumn<R> =
  | readonly ['INTEGER' | 'DOUBLE', (row: R) => number]
  | readonly ['BIGINT', (row: R) => bigint]
  | readonly ['VARCHAR', (row: R) => string];

const TYPES: Record<DuckDbColumn<unknown>[0], DuckDBType> = { INTEGER, DOUBLE, BIGINT, VARCHAR };

/** The columns' SQL (`name TYPE NOT NULL, ...`) for a table `appendColumns` fills with `columns`. */
export const columnsSql = <R>(names: readonly string[], columns: readonly DuckDbColumn<R>[]): string =>
  names.map((name, i) => `${name} ${(columns[i] as DuckDbColumn<R>)[0]} NOT NULL`).join(', ');

/** Appends `rows` to `table` (`schema` 'temp' for a temporary table), a column at a time. */
export async function appendColumns<R>(
  db: DuckDBConnection,
  table: string,
  columns: readonly DuckDbColumn<R>[],
  rows: readonly R[],
  schema: string | null = null,
): Promise<void> {
  if (rows.length === 0) return;
  const appender = await db.createAppender(table, null, schema);
  const types = columns.map(([type]) => TYPES[type]);
  const size = DuckDBVector.standardSize();
  for (let offset = 0; offset < rows.length; offset += size) {
    const count = Math.min(size, rows.length - offset);
    const chunk = DuckDBDataChunk.create(types, count);
    for (const [c, [, value]] of columns.entries()) {
      const vector = chunk.getColumnVector(c) as DuckDBVector<number | bigint | string>;
      for (let i = 0; i < count; i++) vector.setItem(i, value(rows[offset + i] as R));
      vector.flush();
    }
    appender.appendDataChunk(chunk);
  }
  appender.closeSync();
}
