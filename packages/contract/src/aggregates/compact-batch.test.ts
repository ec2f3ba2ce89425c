import { describe, expect, it } from 'vitest';
import { type AggregateBatch, shipNodeAggregates } from '../routes/analytics-aggregates.js';
import { generateTraffic } from '../testing/edge-traffic.js';
import { packAggregates } from './aggregate-batches.js';
import {
  COMPACT_BATCH_FORMAT,
  type CompactAggregateBatch,
  decodeAggregateBatch,
  encodeAggregateBatch,
} from './compact-batch.js';
import { DEFAULT_PARTIAL_MS, MinuteAggregator } from './minute-aggregator.js';

const T0 = Date.UTC(2026, 10, 28, 12, 0);

/** Batches of generated traffic with partials, corrections, blocked floods and WAF blocks. */
function batches(): AggregateBatch[] {
  const a = new MinuteAggregator({
    partialMs: 15_000,
    graceMs: 5000,
    locate: () => ({ country: 'DE', city: 2950159 }),
  });
  const events = generateTraffic({
    seed: 7,
    start: T0,
    seconds: 130,
    rps: 60,
    domains: 6,
    jitterMs: 8000,
    flood: { domains: [2], addresses: 5, rps: 40 },
  });
  const out: AggregateBatch[] = [];
  const take = (partials?: boolean) => {
    for (const body of packAggregates(a.take(partials))) out.push({ batchId: `n1-${out.length}`, dropped: 3, ...body });
  };
  for (const e of events) {
    a.add(e);
    if (a.partialDue || a.pending.closed > 0) take();
  }
  a.closeAll();
  take();
  return out;
}

/** The sample's keys in the compact order, and where a record holds those its mask can leave out (mask bit order). */
const SAMPLE_KEYS =
  'id time domainId ip method scheme httpVersion host path status bytesIn bytesOut requestMs upstreamMs upstreamStatus cacheStatus userAgent referer fwKind fwRule fwAction wafPart wafExcerpt wafName'.split(
    ' ',
  );
const FROM_RECORD: [string, number][] = [
  ['domainId', 1],
  ['ip', 2],
  ['fwKind', 3],
  ['fwRule', 4],
  ['fwAction', 5],
  ['time', 7],
  ['bytesIn', 9],
  ['bytesOut', 10],
];

/** A node-minute of bench/ingest-path.ts's profile (1,000 sites, 200,000 addresses, a flood on three) at `rps`. */
function benchMinute(rps: number): AggregateBatch[] {
  const a = new MinuteAggregator({ partialMs: DEFAULT_PARTIAL_MS });
  const out: AggregateBatch[] = [];
  const cut = (partials: boolean) => {
    for (const body of packAggregates(a.take(partials))) out.push({ batchId: 'b-1', dropped: 0, ...body });
  };
  for (let s = 0; s < 66; s++) {
    if (s < 60) {
      const flood = { domains: [3, 17, 250], addresses: 500, rps: rps / 4 };
      const o = { seed: 3 + s, start: T0 + s * 1000, seconds: 1, rps, domains: 1000, addresses: 200_000, flood };
      for (const e of generateTraffic({ ...o, jitterMs: 0 })) a.add(e);
    }
    a.advance(T0 + (s + 1) * 1000);
    if (a.pending.closed > 0) cut(false);
    else if (a.partialDue) cut(true);
  }
  return out;
}

/** A batch's collapsed records as format 2 wrote them: no mask, every sample field. */
function formatTwo(batch: AggregateBatch, compact: CompactAggregateBatch): number[][] {
  expect(compact.collapsed.length).toBe(batch.collapsed.length);
  return compact.collapsed.map((row) => {
    const mask = row[11]!;
    const out = row.slice(0, 11);
    let at = 12;
    for (const key of SAMPLE_KEYS) {
      const bit = FROM_RECORD.findIndex(([k]) => k === key);
      out.push(bit >= 0 && mask & (1 << bit) ? row[FROM_RECORD[bit]![1]]! : row[at++]!);
    }
    expect(at).toBe(row.length);
    return out;
  });
}

const body = shipNodeAggregates.request.body;
const check = shipNodeAggregates.request.bodyCheck as (v: unknown) => boolean;

describe('the compact aggregate batch', () => {
  const made = batches();

  it('decodes to the batch it encodes, field for field, and the node API takes both forms', () => {
    expect(made.some((b) => b.minutes.some((m) => m.top && m.upstreamMs && m.blockedIps))).toBe(true);
    expect(made.some((b) => b.minutes.some((m) => m.top === undefined))).toBe(true);
    expect(made.some((b) => b.collapsed.length > 0)).toBe(true);
    for (const batch of made) {
      // Through JSON, as shipped.
      const compact = JSON.parse(JSON.stringify(encodeAggregateBatch(batch)));
      expect(compact.format).toBe(COMPACT_BATCH_FORMAT);
      expect(decodeAggregateBatch(compact)).toEqual(JSON.parse(JSON.stringify(batch)));
      expect(check(compact)).toBe(true);
      expect(body.safeParse(compact).success).toBe(true);
      // The object form of agents from before: still taken.
      const object = JSON.parse(JSON.stringify(batch));
      expect(check(object)).toBe(true);
      expect(body.safeParse(object).success).toBe(true);
    }
  });

  it('leaves out the sample fields its record repeats, restored as they were; format 2 (every field) still read', () => {
    const withCollapsed = made.filter((b) => b.collapsed.length > 0);
    expect(withCollapsed.length).toBeGreaterThan(0);
    for (const batch of withCollapsed) {
      const compact = encodeAggregateBatch(batch);
      // The sample's ip, decision and domain are its record's: each record carries at most the mask's fields left.
      for (const row of compact.collapsed) expect(row[11]).toBeGreaterThan(0);
      const old = JSON.parse(JSON.stringify({ ...compact, format: 2, collapsed: formatTwo(batch, compact) }));
      expect(decodeAggregateBatch(old)).toEqual(JSON.parse(JSON.stringify(batch)));
      expect(check(old)).toBe(true);
      expect(body.safeParse(old).success).toBe(true);
    }
    // A sample that differs from its record in every such field keeps them all.
    const batch = structuredClone(withCollapsed[0] as AggregateBatch);
    const c = batch.collapsed[0]!;
    c.sample = {
      ...c.sample,
      domainId: c.domainId + 1,
      ip: '192.0.2.99',
      fwRule: c.fwRule + 1,
      time: c.first + 1,
      bytesIn: c.bytesIn + 1,
    };
    const compact = JSON.parse(JSON.stringify(encodeAggregateBatch(batch)));
    expect(decodeAggregateBatch(compact)).toEqual(JSON.parse(JSON.stringify(batch)));
    // A mask past the fields it can name: not a batch.
    const badMask = structuredClone(compact);
    badMask.collapsed[0][11] = 1 << 8;
    expect(check(badMask)).toBe(false);
  });

  it("decodes the bench profile's node-minute to the batches it encodes", () => {
    const minute = benchMinute(200);
    expect(minute.reduce((n, b) => n + b.collapsed.length, 0)).toBeGreaterThan(1000);
    for (const batch of minute) {
      const compact = JSON.parse(JSON.stringify(encodeAggregateBatch(batch)));
      expect(decodeAggregateBatch(compact)).toEqual(JSON.parse(JSON.stringify(batch)));
      expect(check(compact)).toBe(true);
    }
  });

  it('is far smaller than the object form, every string sent once', () => {
    const objectBytes = made.reduce((n, b) => n + JSON.stringify(b).length, 0);
    const compactBytes = made.reduce((n, b) => n + JSON.stringify(encodeAggregateBatch(b)).length, 0);
    expect(compactBytes).toBeLessThan(objectBytes * 0.6);
    for (const b of made) {
      const strings = encodeAggregateBatch(b).strings;
      expect(new Set(strings).size).toBe(strings.length);
    }
  });

  it('refuses, in the check and the schema alike, a record cut short, longer, or with a bad index or number', () => {
    const batch = made.find((b) => b.collapsed.length > 0 && b.minutes.some((m) => m.top)) as AggregateBatch;
    const good = encodeAggregateBatch(batch);
    const withTop = batch.minutes.findIndex((m) => m.top !== undefined);
    const broken: unknown[] = [];
    const change = (f: (c: typeof good) => void) => {
      const c = structuredClone(good);
      f(c);
      broken.push(c);
    };
    for (const part of ['minutes', 'collapsed'] as const) {
      const i = part === 'minutes' ? withTop : 0;
      change((c) => c[part][i]?.pop());
      change((c) => c[part][i]?.push(0));
      change((c) => {
        (c[part][i] as number[])[2] = 0.5;
      });
      change((c) => {
        (c[part][i] as number[])[3] = -7;
      });
      change((c) => {
        (c[part] as unknown[])[i] = 'x';
      });
    }
    // A string index out of range, a minute not whole, an unknown key, another format, a string that is not one.
    change((c) => {
      (c.collapsed[0] as number[])[2] = c.strings.length;
    });
    change((c) => {
      (c.minutes[0] as number[])[0] = T0 + 1;
    });
    change((c) => Object.assign(c, { extra: 1 }));
    change((c) => Object.assign(c, { format: 4 }));
    change((c) => {
      (c.strings as unknown[])[0] = 5;
    });
    for (const [i, b] of broken.entries()) {
      expect(check(b), `case ${i}`).toBe(false);
      expect(body.safeParse(b).success, `case ${i}`).toBe(false);
    }
  });
});
