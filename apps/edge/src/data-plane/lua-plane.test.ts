import { entryId, type PlaneChange, type PlaneEntry, type PlaneMeta } from '@rampart/contract';
import { entryHash, planeHash } from '@rampart/contract/plane-hash';
import { describe, expect, it } from 'vitest';
import { domain, upstream } from '../../test/helpers/documents.js';
import { type LuaOp, LuaPlane, PlaneRefusedError } from './lua-plane.js';

const META: PlaneMeta = {
  cacheEpoch: 0,
  limits: { invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 0, challengeWorkBits: 21 },
  forceSSLCode: 301,
  challenge: { keys: [], passSeconds: 1800 },
  geoDatabase: null,
  abuseIPs: null,
};

function domainEntry(id: number, name: string, port = 8080): PlaneEntry {
  const { forceSSLCode: _code, ...value } = domain(id, name, [upstream(port)]);
  return { kind: 'domain', key: name, hash: entryHash('domain', name, value), value };
}

function acmeEntry(siteId: number, hosts: string[]): PlaneEntry {
  const value = hosts.map((host) => {
    const token = `token${host.replace(/\W/g, '')}aaaaaaaaaaaaaaaa`.slice(0, 24);
    return { host, token, keyAuthorization: `${token}.thumbprintthumbprint` };
  });
  return { kind: 'acme', key: String(siteId), hash: entryHash('acme', String(siteId), value), value };
}

function full(entries: PlaneEntry[], to = '10', meta = META) {
  return LuaPlane.full({
    type: 'full',
    to,
    meta,
    metaHash: entryHash('meta', '', meta),
    entries,
    planeHash: planeHash(entries.map((e) => e.hash)),
  });
}

/** A delta from `plane` putting and deleting entries, with the plane hash it must name. */
function delta(plane: LuaPlane, to: string, puts: PlaneEntry[], dels: PlaneEntry[] = [], meta = plane.meta) {
  const entries = new Map(plane.entries);
  const changes: PlaneChange[] = [];
  for (const e of dels) {
    entries.delete(entryId(e.kind, e.key));
    changes.push({ op: 'del', kind: e.kind, key: e.key });
  }
  for (const e of puts) {
    entries.set(entryId(e.kind, e.key), e);
    changes.push({ op: 'put', kind: e.kind, key: e.key, hash: e.hash, value: e.value });
  }
  return {
    type: 'delta' as const,
    from: plane.to,
    to,
    meta,
    metaHash: entryHash('meta', '', meta),
    changes,
    planeHash: planeHash([...entries.values()].map((e) => e.hash)),
  };
}

/** The records after `ops`, applied to `records` as nginx's store applies them. */
function applyOps(records: Map<string, string>, ops: LuaOp[]): Map<string, string> {
  const out = new Map(records);
  for (const [key, hash, value] of ops) {
    if (value === null) out.delete(key);
    else out.set(key, hash);
  }
  return out;
}

const recordsOf = (plane: LuaPlane) => new Map(plane.allOps().map(([key, hash]) => [key, hash]));

describe('a whole plane', () => {
  it('stands for one record per entry, domains with the zone redirect code, plus the node values', () => {
    const plane = full([domainEntry(1, 'a.example.com'), acmeEntry(3, ['a.example.com', 'b.example.com'])]);
    const keys = plane.allOps().map(([key]) => key);
    expect(keys.sort()).toEqual(
      [
        'a:a.example.com/tokenaexamplecomaaaaaaaa',
        'a:b.example.com/tokenbexamplecomaaaaaaaa',
        'd:a.example.com',
        'n:',
      ].sort(),
    );
    const domainRecord = plane.allOps().find(([key]) => key === 'd:a.example.com');
    expect(domainRecord?.[2]).toMatchObject({ name: 'a.example.com', forceSSLCode: 301 });
  });

  it('refuses an entry whose hash is not its value’s, a value the contract refuses, and a wrong plane hash', () => {
    const good = domainEntry(1, 'a.example.com');
    expect(() => full([{ ...good, hash: '000000000000' }])).toThrow(PlaneRefusedError);
    const bad = { ...good, value: { ...(good.value as object), name: 'not a host;' } };
    expect(() => full([{ ...bad, hash: entryHash('domain', bad.key, bad.value) }])).toThrow(/domain a.example.com/);
    expect(() =>
      LuaPlane.full({
        type: 'full',
        to: '1',
        meta: META,
        metaHash: '000000000000',
        entries: [good],
        planeHash: '000000000001',
      }),
    ).toThrow(/hash to/);
  });
});

describe('a delta', () => {
  it('answers the records that changed: a changed, an added and a deleted domain', () => {
    const plane = full([domainEntry(1, 'a.example.com'), domainEntry(2, 'b.example.com')]);
    const ops = plane.applyDelta(
      delta(
        plane,
        '11',
        [domainEntry(1, 'a.example.com', 9090), domainEntry(3, 'c.example.com')],
        [domainEntry(2, 'b.example.com')],
      ),
    );
    expect(ops.map(([key, , value]) => [key, value === null ? 'del' : 'put']).sort()).toEqual([
      ['d:a.example.com', 'put'],
      ['d:b.example.com', 'del'],
      ['d:c.example.com', 'put'],
    ]);
    expect(plane.to).toBe('11');
  });

  it('refuses a delta from another sequence, a corrupted entry, or a wrong plane hash, and changes nothing', () => {
    const plane = full([domainEntry(1, 'a.example.com')]);
    const before = recordsOf(plane);
    const next = delta(plane, '11', [domainEntry(2, 'b.example.com')]);
    expect(() => plane.applyDelta({ ...next, from: '9' })).toThrow(/delta from 9/);
    const corrupted = structuredClone(next);
    const changed = corrupted.changes[0]?.value as { origin: { upstreams: { port: number }[] } };
    const first = changed.origin.upstreams[0];
    if (first) first.port = 1;
    expect(() => plane.applyDelta(corrupted)).toThrow(/not the hash of its value/);
    expect(() => plane.applyDelta({ ...next, planeHash: '000000000000' })).toThrow(/hashes to/);
    expect(recordsOf(plane)).toEqual(before);
    expect(plane.to).toBe('10');
  });

  it('rewrites every domain when the zone redirect code changes', () => {
    const plane = full([domainEntry(1, 'a.example.com'), domainEntry(2, 'b.example.com')]);
    const ops = plane.applyDelta(delta(plane, '11', [], [], { ...META, forceSSLCode: 308 }));
    expect(ops.map(([key]) => key).sort()).toEqual(['d:a.example.com', 'd:b.example.com']);
    expect(ops.every(([, , value]) => (value as { forceSSLCode: number }).forceSSLCode === 308)).toBe(true);
  });

  it('a random sequence of deltas leaves the records of the whole plane of the same entries', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const names = Array.from({ length: 30 }, (_, i) => `h${i}.example.com`);
    const plane = full(names.slice(0, 10).map((n, i) => domainEntry(i + 1, n)));
    let records = recordsOf(plane);
    for (let step = 0; step < 200; step++) {
      const puts: PlaneEntry[] = [];
      const dels: PlaneEntry[] = [];
      const used = new Set<string>();
      for (let k = 0; k < 1 + random(4); k++) {
        const i = random(names.length);
        const name = names[i] ?? '';
        if (used.has(name)) continue;
        used.add(name);
        if (plane.entries.has(entryId('domain', name)) && random(3) === 0) dels.push(domainEntry(i + 1, name));
        else puts.push(domainEntry(i + 1, name, 8000 + random(5)));
      }
      if (random(10) === 0) puts.push(acmeEntry(random(3), [names[random(names.length)] ?? '']));
      const meta = random(15) === 0 ? { ...plane.meta, forceSSLCode: random(2) === 0 ? 301 : 302 } : plane.meta;
      records = applyOps(records, plane.applyDelta(delta(plane, String(11 + step), puts, dels, meta as PlaneMeta)));
      const whole = full([...plane.entries.values()], plane.to, plane.meta);
      expect(records).toEqual(recordsOf(whole));
      expect(plane.sum).toBe(whole.sum);
    }
  });
});

describe('origins named by host names', () => {
  function namedEntry(id: number, name: string, upstreams = [upstream(443, { ip: 'app.origin.example' })]): PlaneEntry {
    const { forceSSLCode: _code, ...value } = domain(id, name, upstreams);
    return { kind: 'domain', key: name, hash: entryHash('domain', name, value), value };
  }
  const answers = new Map<string, readonly string[]>();
  const lookup = {
    lookup: (host: string) => {
      const addresses = answers.get(host);
      return addresses && { addresses, problem: addresses.length > 0 ? '' : `${host} does not resolve` };
    },
  };
  const originOf = (ops: LuaOp[], key: string) => {
    const op = ops.find((o) => o[0] === key);
    if (!op) throw new Error(`no op for ${key}`);
    return (op[2] as { origin: { upstreams: { ip: string }[]; unresolved?: true } }).origin;
  };

  it('carries the addresses a name resolved to into its record, and changes only the records of a changed name', () => {
    answers.set('app.origin.example', ['192.0.2.10', '2001:db8::10']);
    const plane = full([
      namedEntry(1, 'named.example.com'),
      namedEntry(2, 'backup.example.com', [upstream(80), upstream(443, { ip: 'app.origin.example', backup: true })]),
      domainEntry(3, 'literal.example.com'),
    ]);
    expect(plane.hostNames()).toEqual(new Set(['app.origin.example']));
    // Before any lookup, an origin of names alone has no address: unresolved.
    expect(originOf(plane.allOps(), 'd:named.example.com')).toMatchObject({ upstreams: [], unresolved: true });
    const literal = plane.allOps().find((op) => op[0] === 'd:literal.example.com');

    const ops = plane.resolveOrigins(lookup, null);
    expect(ops.map((op) => op[0]).sort()).toEqual(['d:backup.example.com', 'd:named.example.com']);
    expect(originOf(ops, 'd:named.example.com').upstreams).toEqual([
      { ip: '192.0.2.10', port: 443, weight: 1, backup: false },
      { ip: '2001:db8::10', port: 443, weight: 1, backup: false },
    ]);
    expect(originOf(ops, 'd:named.example.com').unresolved).toBeUndefined();
    expect(plane.allOps().find((op) => op[0] === 'd:literal.example.com')).toEqual(literal);

    // The same answer again changes nothing; another answer changes the named records only.
    expect(plane.resolveOrigins(lookup, new Set(['app.origin.example']))).toEqual([]);
    answers.set('app.origin.example', []);
    const gone = plane.resolveOrigins(lookup, new Set(['app.origin.example']));
    expect(originOf(gone, 'd:named.example.com')).toMatchObject({ upstreams: [], unresolved: true });
    // A backup on a name leaves the literal primary: the origin is not unresolved.
    expect(originOf(gone, 'd:backup.example.com')).toMatchObject({ upstreams: [{ ip: '127.0.0.1', port: 80 }] });
    expect(originOf(gone, 'd:backup.example.com').unresolved).toBeUndefined();
    // The store's sum follows the records.
    const again = full([...plane.entries.values()], plane.to);
    again.resolveOrigins(lookup, null);
    expect(again.sum).toBe(plane.sum);
  });
});

describe('the host names a plane names', () => {
  it('follow the domain entries a delta puts and deletes', () => {
    const named = (id: number, key: string, host: string) => {
      const { forceSSLCode: _code, ...value } = domain(id, key, [upstream(80, { ip: host })]);
      return { kind: 'domain', key, hash: entryHash('domain', key, value), value } as PlaneEntry;
    };
    const a = named(1, 'a.example.com', 'one.origin.example');
    const b = named(2, 'b.example.com', 'one.origin.example');
    const plane = full([a, b, domainEntry(3, 'c.example.com')]);
    expect(plane.hostNames()).toEqual(new Set(['one.origin.example']));
    plane.applyDelta(delta(plane, '11', [named(1, 'a.example.com', 'two.origin.example')]));
    expect(plane.hostNames()).toEqual(new Set(['one.origin.example', 'two.origin.example']));
    plane.applyDelta(delta(plane, '12', [], [b]));
    expect(plane.hostNames()).toEqual(new Set(['two.origin.example']));
  });
});
