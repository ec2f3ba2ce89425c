/** The analytics bench's baselines: the raw floor and the path alone (rawFloor). */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { EventRow } from '../../apps/server/src/modules/analytics/analytics-store.js';
import { BatchGroups } from '../../apps/server/src/modules/analytics/batch-groups.js';
import {
  EVENTS_DDL as CH_EVENTS_DDL,
  GROUP_MAX_EVENTS as CH_GROUP_MAX_EVENTS,
  EVENT_TSV_COLUMNS,
  eventTsv,
} from '../../apps/server/src/modules/analytics/clickhouse-store.js';
import {
  appendEvent,
  EVENTS_DDL as DUCK_EVENTS_DDL,
  GROUP_MAX_EVENTS as DUCK_GROUP_MAX_EVENTS,
} from '../../apps/server/src/modules/analytics/duckdb-store.js';
import { BATCH, benchIngest, EVENTS, FLOOR_EVENTS, feed, log, round } from './events.js';

/** Clock ticks per second of /proc's CPU times. */
export const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU seconds a process used so far (user + system, from /proc), or NaN where it cannot be read. */
export function processCpuSeconds(pid: number): number {
  try {
    // The fields after the command's closing parenthesis (the last one: the command may hold one):
    // utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/**
 * The run's baseline, the raw floor: the first FLOOR_EVENTS events through the same path (inflated,
 * parsed, checked and placed by the ingest service, 20 nodes at once) into a table of raw events
 * alone, in a database of its own of the same kind, written as the store writes its events
 * (a group of batches at a time: DuckDB's appender in a transaction, a TabSeparated INSERT) — no
 * rollups, no ledger, no duplicate check. What storing an event costs at the least on this
 * machine; the ingest's figure beside it is what the analytics cost on top.
 */
export async function rawFloor(
  target: { dir: string } | { url: URL; pid: number | null } | null,
  batches: readonly { node: number; body: Buffer }[],
  now: number,
) {
  const floorBatches = batches.slice(0, Math.ceil(FLOOR_EVENTS / BATCH));
  const events = Math.min(EVENTS, floorBatches.length * BATCH);
  // A group of batches at a time, as the stores write (BatchGroups: those that arrive while one is
  // written go together in the next).
  let write: (rows: readonly EventRow[]) => Promise<void>;
  // close: the end of storing (DuckDB's checkpoint), timed; dispose: the floor's database gone, after.
  let close: () => Promise<void>;
  let dispose = async () => {};
  let most = 1;
  let serverCpu = () => Number.NaN;
  if (target === null) {
    // The path alone: nothing stored.
    write = async () => {};
    close = async () => {};
  } else if ('dir' in target) {
    const instance = await DuckDBInstance.create(path.join(target.dir, 'floor.duckdb'));
    const db = await instance.connect();
    await db.run(DUCK_EVENTS_DDL);
    most = DUCK_GROUP_MAX_EVENTS;
    write = async (rows) => {
      await db.run('BEGIN TRANSACTION');
      try {
        const appender = await db.createAppender('events');
        for (const row of rows) appendEvent(appender, row);
        appender.closeSync();
        await db.run('COMMIT');
      } catch (error) {
        await db.run('ROLLBACK');
        throw error;
      }
    };
    close = async () => {
      await db.run('CHECKPOINT');
      db.closeSync();
      instance.closeSync();
    };
  } else {
    const { url, pid } = target;
    // Credentials go in a header (fetch refuses them in the address).
    const auth = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    const post = async (query: string, body?: string, database: string | null = 'rampart_bench_floor') => {
      const u = new URL(url);
      u.username = '';
      u.password = '';
      u.pathname = '/';
      if (database) u.searchParams.set('database', database);
      u.searchParams.set('query', query);
      const response = await fetch(u, { method: 'POST', body, headers: { authorization: auth } });
      if (!response.ok) throw new Error(`ClickHouse (${response.status}): ${await response.text()}`);
    };
    await post('DROP DATABASE IF EXISTS rampart_bench_floor', undefined, null);
    await post('CREATE DATABASE rampart_bench_floor', undefined, null);
    await post(CH_EVENTS_DDL);
    most = CH_GROUP_MAX_EVENTS;
    write = (rows) =>
      post(`INSERT INTO events (${EVENT_TSV_COLUMNS}) FORMAT TabSeparated`, `${rows.map(eventTsv).join('\n')}\n`);
    close = async () => {};
    dispose = () => post('DROP DATABASE rampart_bench_floor', undefined, null);
    if (pid !== null) serverCpu = () => processCpuSeconds(pid);
  }
  const groups = new BatchGroups(most, async (group) => {
    await write(group.flatMap((batch) => batch.events));
    return group.map((batch) => ({ stored: batch.events.length, duplicate: false }));
  });
  const ingest = benchIngest({ ingest: (batch) => groups.add(batch) }, now);
  const label = target === null ? 'the path alone' : `${'dir' in target ? 'duckdb' : 'clickhouse'}: the raw floor`;
  log(`${label}, ${events} events`);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const server0 = serverCpu();
  await feed(ingest, floorBatches, label);
  await close();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const server = serverCpu() - server0;
  await dispose();
  return {
    events,
    events_per_s: Math.round(events / seconds),
    cpu_s_per_million: round((cpu.user + cpu.system) / 1e6 / (events / 1e6), 2),
    server_cpu_s_per_million: Number.isNaN(server) ? null : round(server / (events / 1e6), 2),
  };
}
