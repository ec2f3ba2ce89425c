import type { EdgeModule } from '@rampart/contract';
import { entryHash, planeHash } from '@rampart/contract/plane-hash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataPlanePushError, patchDataPlane, type RecordsPush } from '../src/data-plane/push.js';
import { document, domain, moduleRefs, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

// nginx's store taking records (PATCH /config, rampart.admin and rampart.store): only the changed
// ones are written, requests see a version whole or not at all, and a refused push changes nothing.

let edge: Edge;
let first: Origin;
let second: Origin;

beforeAll(async () => {
  [first, second] = await Promise.all([startOrigin('first'), startOrigin('second')]);
  edge = await startEdge();
});

afterAll(async () => {
  await edge?.stop();
  await first?.close();
  await second?.close();
});

type Op = RecordsPush['ops'][number];
const META = { limits: { invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 0 }, geoDatabase: null, abuseIPs: null };

/** The record of a domain on `port`, with its hash. */
function domainOp(id: number, name: string, port: number, extra: Parameters<typeof domain>[3] = {}): Op {
  const value = domain(id, name, [upstream(port)], extra);
  return [`d:${name}`, entryHash('lua', `d:${name}`, value), value];
}

function recordOp(key: string, value: unknown): Op {
  return [key, entryHash('lua', key, value), value];
}

/** The records a store holds, by key → hash, and their sum as the store reports it. */
class Records {
  readonly hashes = new Map<string, string>();
  apply(ops: Op[], reset = false): this {
    if (reset) this.hashes.clear();
    for (const [key, hash, value] of ops) {
      if (value === null) this.hashes.delete(key);
      else this.hashes.set(key, hash);
    }
    return this;
  }
  get sum(): string {
    return planeHash(this.hashes.values());
  }
}

async function generation(): Promise<number> {
  return (await edge.admin('/config/version')).body.generation as number;
}

async function patch(records: Records, ops: Op[], options: { reset?: boolean; from?: number | null } = {}) {
  const reset = options.reset ?? false;
  const from = options.from === undefined ? (reset ? null : await generation()) : options.from;
  records.apply(ops, reset);
  return patchDataPlane(edge.adminEndpoint, { version: `v${Date.now()}`, from, reset, meta: META, ops }, records.sum);
}

describe('a delta of records', () => {
  it('needs a whole push of records first: a store filled by a whole document has no sum to build on', async () => {
    await edge.push(document('doc', [domain(1, 'doc.example.com', [upstream(first.port)])]));
    const error = await patch(new Records(), [domainOp(2, 'x.example.com', first.port)]).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 409 });
    expect((await request(edge.httpPort, 'x.example.com')).status).toBe(404);
  });

  it('replaces everything with a reset, then changes, adds and deletes only the records it names', async () => {
    const records = new Records();
    const base = [
      domainOp(1, 'a.example.com', first.port),
      domainOp(2, 'b.example.com', first.port),
      domainOp(3, 'c.example.com', first.port),
      recordOp('n:', { cacheEpoch: 0 }),
    ];
    const full = await patch(records, base, { reset: true });
    expect(full).toMatchObject({ domains: 3, sum: records.sum });
    // The whole document's domain is gone with the reset.
    expect((await request(edge.httpPort, 'doc.example.com')).status).toBe(404);
    for (const host of ['a', 'b', 'c'])
      expect(servedBy((await request(edge.httpPort, `${host}.example.com`)).body)).toBe('first');

    // Deleting a record the store does not hold is harmless (a delta may repeat a deletion).
    const answer = await patch(records, [domainOp(1, 'a.example.com', second.port), ['c:9', '000000000000', null]]);
    expect(answer).toMatchObject({ sum: records.sum });
    const before = await generation();
    const result = await patch(records, [
      domainOp(4, 'd.example.com', second.port),
      ['d:c.example.com', '000000000000', null],
    ]);
    expect(result).toMatchObject({ generation: before + 1, domains: 3, sum: records.sum });
    expect(servedBy((await request(edge.httpPort, 'a.example.com')).body)).toBe('second');
    expect(servedBy((await request(edge.httpPort, 'b.example.com')).body)).toBe('first');
    expect((await request(edge.httpPort, 'c.example.com')).status).toBe(404);
    expect(servedBy((await request(edge.httpPort, 'd.example.com')).body)).toBe('second');

    // Superseded records are kept for requests that started before, then collected.
    const stats = async () => (await edge.admin('/config/stats')).body;
    expect(await stats()).toMatchObject({ entries: 5 }); // 3 domains, the node values, the meta
    expect((await edge.admin('/config/gc', 'POST')).status).toBe(200);
    expect(await stats()).toMatchObject({ entries: 5, previous: 0, deleted: 0 });
    expect(servedBy((await request(edge.httpPort, 'a.example.com')).body)).toBe('second');
  });

  it('refuses a delta built on another version (409) and an invalid record (400, named), and changes nothing', async () => {
    const records = new Records();
    await patch(records, [domainOp(1, 'keep.example.com', first.port), recordOp('n:', { cacheEpoch: 0 })], {
      reset: true,
    });
    const at = await generation();
    const stale = await patch(new Records(), [domainOp(1, 'keep.example.com', second.port)], { from: at - 1 }).catch(
      (e: unknown) => e,
    );
    expect(stale).toBeInstanceOf(DataPlanePushError);
    expect(stale).toMatchObject({ status: 409 });

    const refusals: [Op, string][] = [
      [domainOp(2, 'bad.example.com;', first.port), 'ops[1] d:bad.example.com;'],
      [
        [
          'd:other.example.com',
          domainOp(3, 'x.example.com', first.port)[1],
          domainOp(3, 'x.example.com', first.port)[2],
        ],
        'ops[1] d:other.example.com.name',
      ],
      [domainOp(4, 'y.example.com', 0), 'ops[1] d:y.example.com.origin.upstreams[0].port'],
      [['d:z.example.com', 'not-a-hash', domain(5, 'z.example.com', [upstream(1)])], 'ops[1][1]'],
      [recordOp('q:1', { id: 1 }), 'ops[1] q:1'],
      [recordOp('meta:', {}), 'ops[1]'],
    ];
    for (const [op, field] of refusals) {
      const error = await patch(new Records(), [domainOp(1, 'keep.example.com', second.port), op], { from: at }).catch(
        (e: unknown) => e,
      );
      expect(error, field).toBeInstanceOf(DataPlanePushError);
      expect(error, field).toMatchObject({ status: 400 });
      expect((error as DataPlanePushError).field?.startsWith(field.split(' ')[0] ?? ''), field).toBe(true);
    }
    expect(await generation()).toBe(at);
    expect(servedBy((await request(edge.httpPort, 'keep.example.com')).body)).toBe('first');
  });

  it('a change of a site-level record reaches every domain that uses it', async () => {
    const records = new Records();
    const headers = (value: string): EdgeModule => ({
      id: 7,
      type: 'customHeader',
      request: [],
      response: [{ name: 'X-Site', value }],
    });
    const refs = { modules: moduleRefs({ customHeader: 7 }) };
    await patch(
      records,
      [
        recordOp('m:7', headers('one')),
        domainOp(1, 'm1.example.com', first.port, refs),
        domainOp(2, 'm2.example.com', first.port, refs),
        recordOp('n:', { cacheEpoch: 0 }),
      ],
      { reset: true },
    );
    for (const host of ['m1', 'm2'])
      expect((await request(edge.httpPort, `${host}.example.com`)).headers['x-site']).toBe('one');
    await patch(records, [recordOp('m:7', headers('two'))]);
    for (const host of ['m1', 'm2'])
      expect((await request(edge.httpPort, `${host}.example.com`)).headers['x-site']).toBe('two');
  });
});

describe('a bulk change', () => {
  it('is seen by requests whole or not at all: no request after the first new answer gets an old one', async () => {
    const records = new Records();
    const count = 2000;
    const names = Array.from({ length: count }, (_, i) => `bulk-${i}.example.com`);
    await patch(records, [...names.map((n, i) => domainOp(i + 1, n, first.port)), recordOp('n:', { cacheEpoch: 0 })], {
      reset: true,
    });
    const seen: string[] = [];
    let done = false;
    const loop = (async () => {
      // Sequential requests over hosts from both ends of the change (bounded: the change ends it).
      for (let i = 0; !done && i < 20_000; i++) {
        const host = names[(i * 997) % count] ?? '';
        seen.push(servedBy((await request(edge.httpPort, host)).body) ?? 'none');
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await patch(
      records,
      names.map((n, i) => domainOp(i + 1, n, second.port)),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    done = true;
    await loop;
    const firstNew = seen.indexOf('second');
    expect(firstNew).toBeGreaterThan(0);
    expect(seen.slice(firstNew).filter((s) => s !== 'second')).toEqual([]);
    expect(seen.slice(0, firstNew).filter((s) => s !== 'first')).toEqual([]);
  });
});

describe('a store too small for the delta', () => {
  let small: Edge;

  beforeAll(async () => {
    small = await startEdge({ configDictMegabytes: 1 });
  });

  afterAll(async () => {
    await small?.stop();
  });

  it('answers 507, keeps the previous version serving, and leaves no partial records', async () => {
    const records = new Records();
    const push = (ops: Op[], options: { reset?: boolean; from?: number | null }) => {
      records.apply(ops, options.reset);
      return patchDataPlane(
        small.adminEndpoint,
        { version: `v${Date.now()}`, from: options.from ?? null, reset: options.reset ?? false, meta: META, ops },
        records.sum,
      );
    };
    const fits = await push([domainOp(1, 'site.example.com', first.port), recordOp('n:', { cacheEpoch: 0 })], {
      reset: true,
    });
    const before = (await small.admin('/config/stats')).body;
    const huge = Array.from({ length: 6000 }, (_, i) =>
      domainOp(i + 2, `host-${i}.example.com`, second.port, {
        origin: { upstreams: [upstream(second.port), upstream(second.port, { ip: '::1' })] },
      }),
    );
    const error = await push([domainOp(1, 'site.example.com', second.port), ...huge], { from: fits.generation }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ status: 507 });
    expect(servedBy((await request(small.httpPort, 'site.example.com')).body)).toBe('first');
    const after = (await small.admin('/config/stats')).body;
    expect(after).toMatchObject({ keys: before.keys, entries: before.entries, generation: before.generation });
  });
});
