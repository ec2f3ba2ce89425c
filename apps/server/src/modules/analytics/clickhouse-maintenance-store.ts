import { LOG_TABLES, type LogPart, type LogPartRef, type LogTable } from '@rampart/contract';
import type { ClickHouseHttp } from './clickhouse-http-store.js';
import { DATED_TABLES, DAY_OF, dayName, dayStart, SUMMED_TABLES, UTC_DAY } from './clickhouse-schema-store.js';
import { checkedParts } from './log-parts.js';

/**
 * The ClickHouse store's upkeep of its parts — retention, merges, the parts' list — done on each
 * server that holds rows: the one server, or every shard of a cluster on its local tables
 * (clickhouse-layout-store.ts). Partitions and merges are a table's own on each server: a Distributed
 * table has none.
 */
export interface ClickHouseShard {
  readonly http: ClickHouseHttp;
  /** The name under which this server holds a table's rows. */
  table(name: string): string;
}

/**
 * Retention without a TTL clause (18.16 has none): the day partitions wholly before the cut are
 * dropped (`ALTER TABLE ... DROP PARTITION`, immediate and cheap); when the cut falls inside a
 * day that holds older rows, those are deleted with `ALTER TABLE ... DELETE WHERE`, a mutation
 * that rewrites the day's parts in the background (so they go a little later).
 */
export async function pruneShard(shard: ClickHouseShard, rawBefore: number, rollupBefore: number): Promise<void> {
  const cuts = { raw: rawBefore, rollup: rollupBefore, ledger: Math.min(rawBefore, rollupBefore) };
  const parts = await shard.http.select(
    'SELECT table, partition FROM system.parts WHERE database = currentDatabase() AND active GROUP BY table, partition',
  );
  for (const [name, column, which] of DATED_TABLES) {
    const table = shard.table(name);
    const cut = cuts[which];
    for (const p of parts) {
      if (p.table !== table) continue;
      const start = dayStart(String(p.partition));
      if (start !== null && start + UTC_DAY <= cut) {
        await shard.http.execute(`ALTER TABLE ${table} DROP PARTITION ${String(p.partition)}`);
      }
    }
    if (cut % UTC_DAY !== 0) {
      const day = dayName(cut);
      const [older] = await shard.http.select(
        `SELECT count() AS n FROM ${table} WHERE ${DAY_OF(column)} = ${day} AND ${column} < ${cut}`,
      );
      if (older && Number(older.n) > 0)
        await shard.http.execute(`ALTER TABLE ${table} DELETE WHERE ${column} < ${cut}`);
    }
  }
}

/**
 * SummingMergeTree sums the partial rows of a key when it merges parts, on its own schedule;
 * this merges the days of [from, to) now (`OPTIMIZE ... PARTITION ... FINAL`), skipping days that
 * are one merged part already (a part straight from an INSERT, level 0, may hold a key twice).
 * A merge already running on the day makes OPTIMIZE a no-op: it is asked again a few times, and
 * then left to the background merges.
 */
export async function compactShard(shard: ClickHouseShard, from: number, to: number): Promise<void> {
  const first = dayName(from);
  const last = dayName(to - 1);
  const parts = await shard.http.select(
    `SELECT table, partition, count() AS parts, min(level) AS level FROM system.parts WHERE database = currentDatabase() ` +
      `AND active AND table IN (${SUMMED_TABLES.map((t) => `'${shard.table(t)}'`).join(', ')}) GROUP BY table, partition`,
  );
  for (const p of parts) {
    const day = Number(p.partition);
    if (dayStart(String(p.partition)) === null || day < first || day > last) continue;
    if (Number(p.parts) === 1 && Number(p.level) > 0) continue;
    for (let attempt = 1; ; attempt++) {
      try {
        await shard.http.request(`OPTIMIZE TABLE ${String(p.table)} PARTITION ${day} FINAL`, {
          settings: { optimize_throw_if_noop: '1' },
        });
        break;
      } catch {
        if (attempt >= 5) break;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }
}

/**
 * The active parts of the tables kept by day, summed per partition (a UTC day) over the servers:
 * rows as stored (a rollup table's rows are partial sums until merged) and bytes on disk.
 */
export async function partsOf(shards: readonly ClickHouseShard[]): Promise<LogPart[]> {
  const sums = new Map<string, LogPart>();
  for (const shard of shards) {
    const names = new Map<string, LogTable>(LOG_TABLES.map((t) => [shard.table(t), t]));
    const rows = await shard.http.select(
      'SELECT table, partition, sum(rows) AS part_rows, sum(bytes_on_disk) AS part_bytes FROM system.parts ' +
        `WHERE database = currentDatabase() AND active AND table IN (${[...names.keys()].map((t) => `'${t}'`).join(', ')}) ` +
        'GROUP BY table, partition',
    );
    for (const r of rows) {
      const table = names.get(String(r.table));
      const part = String(r.partition);
      if (!table || dayStart(part) === null) continue;
      const key = `${table} ${part}`;
      const sum = sums.get(key) ?? { table, part, rows: 0, bytes: 0 };
      sums.set(key, { ...sum, rows: sum.rows + Number(r.part_rows), bytes: (sum.bytes ?? 0) + Number(r.part_bytes) });
    }
  }
  return [...sums.values()];
}

/** Drops each part's partition (the table's rows of that UTC day) on every server, one after another. */
export async function dropPartsOf(shards: readonly ClickHouseShard[], items: readonly LogPartRef[]): Promise<void> {
  for (const p of checkedParts(items)) {
    for (const shard of shards)
      await shard.http.execute(`ALTER TABLE ${shard.table(p.table)} DROP PARTITION ${p.part}`);
  }
}
