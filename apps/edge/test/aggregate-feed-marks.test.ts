import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { aggregateBatchSchema, decodeAggregateBatch, type EdgeEvent } from '@rampart/contract';
import { generateTraffic } from '@rampart/contract/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogCursor } from '../src/agent/events/access-log-reader.js';
import { AggregateFeed } from '../src/agent/events/aggregate-feed.js';

// The aggregate feed's marks across a restart, driven line by line with the cursors the reader
// gives (two log files: A, then B after a rotation), the spool on disk. A restart is a new feed on
// the same spool reading again from the cursor it answers (kill -9: nothing stopped, no last cut).
// The proof: the requests of the spooled records equal the lines, once each.

const T0 = Date.UTC(2026, 10, 28, 12, 0);
const template = generateTraffic({ seed: 7, start: T0, seconds: 1, rps: 1, domains: 1 })[0] as EdgeEvent;
const A = '101';
const B = '202';
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp('/tmp/rampart-aggregate-marks-');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Line {
  event: EdgeEvent;
  end: LogCursor;
}

/** One line per entry of `seconds` (log time after T0), in `inode`, each 100 bytes after `from`. */
function lines(inode: string, from: number, seconds: number[]): Line[] {
  return seconds.map((s, i) => ({
    event: { ...template, id: `${inode}-${from + i}`, time: T0 + s * 1000 },
    end: { inode, offset: from + (i + 1) * 100 },
  }));
}

function feed(): AggregateFeed {
  return new AggregateFeed({ dir, aggregator: { graceMs: 3000, partialMs: 15_000 } });
}

/** Adds the lines, cutting whenever the feed is ready (as the collector's rounds do). */
async function read(f: AggregateFeed, all: Line[]): Promise<void> {
  for (const line of all) {
    f.add(line.event, line.end);
    f.advance(line.event.time);
    if (f.ready) await f.cut();
  }
}

/** After a restart: the lines from where the feed says reading starts again. */
function from(all: Line[], cursor: LogCursor | null): Line[] {
  if (cursor === null) throw new Error('no replay saved');
  const at = all.findIndex((l) => l.end.inode === cursor.inode && l.end.offset > cursor.offset);
  return at < 0 ? [] : all.slice(at);
}

/** Requests per minute in the spooled records. */
async function spooledRequests(): Promise<Record<number, number>> {
  const out: Record<number, number> = {};
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.gz')).sort()) {
    const json = gunzipSync(await readFile(path.join(dir, name))).toString('utf8');
    const batch = aggregateBatchSchema.parse(decodeAggregateBatch(JSON.parse(json)));
    for (const m of batch.minutes) out[m.minute] = (out[m.minute] ?? 0) + m.counters[0];
  }
  return out;
}

function truth(all: Line[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const { event } of all) {
    const minute = event.time - (event.time % 60_000);
    out[minute] = (out[minute] ?? 0) + 1;
  }
  return out;
}

async function finish(f: AggregateFeed, rest: Line[]): Promise<void> {
  await read(f, rest);
  f.closeAll();
  await f.cut();
}

describe('the aggregate feed across a restart', () => {
  it('forgets a partial once its minutes closed: a log rotated since loses no request', async () => {
    // Minute 0 in file A, a partial of it cut; the log rotates to B (a late line of minute 0, then
    // minute 1), minute 0 closes with no partial: reading would start again in B, the partial's
    // end lies in A.
    const all = [...lines(A, 0, [1, 5, 10, 16, 17, 20, 30]), ...lines(B, 0, [29, 64, 65, 66, 67])];
    const first = feed();
    expect(await first.open()).toBeNull();
    await first.start({ inode: A, offset: 0 });
    await read(first, all);
    expect((await readdir(dir)).filter((n) => n.endsWith('.gz')).length).toBeGreaterThanOrEqual(2);

    const second = feed();
    const cursor = await second.open();
    expect(cursor?.inode).toBe(B);
    await finish(second, [...from(all, cursor), ...lines(B, 600, [70, 75])]);
    expect(await spooledRequests()).toEqual(truth([...all, ...lines(B, 600, [70, 75])]));
  });

  it('a partial held after a failed spool write names its own end: nothing is counted twice', async () => {
    const all = lines(A, 0, [1, 5, 10, 16, 20, 25, 30, 33, 40, 45]);
    const first = feed();
    expect(await first.open()).toBeNull();
    await first.start({ inode: A, offset: 0 });
    await read(first, all.slice(0, 4)); // a partial through the 4th line
    // The next partial (through the 8th line) is taken, its write fails: it is held.
    await read(first, all.slice(4, 7));
    const write = vi.spyOn(first.spool, 'appendGroup').mockRejectedValueOnce(new Error('disk full'));
    first.add(all[7]!.event, all[7]!.end);
    first.advance(all[7]!.event.time);
    expect(first.ready).toBe(true);
    await expect(first.cut()).rejects.toThrow('disk full');
    write.mockRestore();
    // The next round spools what was held (no partial due, the minute still open); then kill -9.
    expect(first.ready).toBe(true);
    await first.cut();

    const second = feed();
    const cursor = await second.open();
    await finish(second, from(all, cursor));
    expect(await spooledRequests()).toEqual(truth(all));
  });
});
