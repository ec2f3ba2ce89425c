import type { PlaneDelta, PlaneFull } from '@rampart/contract';
import { entryHash } from '@rampart/contract/plane-hash';
import { describe, expect, it } from 'vitest';
import { document, domain, upstream } from '../../../test/helpers/documents.js';
import { planeOf, snapshotOf } from '../../../test/helpers/fake-control-plane.js';
import { LuaPlane, PlaneRefusedError } from '../../data-plane/lua-plane.js';
import { planeAnswer, planeStreamLine, snapshotAnswer } from './node-answers.js';
import { NodeApiError, SnapshotRefusedError } from './node-api-errors.js';

// A control plane one version ahead may add a key to what the node reads of its plane: the agent
// drops it and goes on (its framing, the meta and the meta's parts, the whole data plane's top
// level), while every key it knows is checked as strictly as before and the entries' values, which
// go to nginx's store as they are, stay strict.

const KEY = { id: 1, secret: 'a'.repeat(64) };

function full(): PlaneFull {
  const dataPlane = document('one', [domain(1, 'site.example.com', [upstream(8080)])]);
  const plane = planeOf(snapshotOf({ ...dataPlane, challenge: { keys: [KEY], passSeconds: 1800 } }), 7);
  if (plane === null) throw new Error('the fake made no plane');
  return plane;
}

/** The full plane with a key the agent does not know at every level it tolerates one. */
function ahead(): Record<string, unknown> {
  const plane = full();
  return {
    ...plane,
    later: 1,
    meta: {
      ...plane.meta,
      laterSetting: { on: true },
      limits: { ...plane.meta.limits, laterLimit: 5 },
      challenge: { ...plane.meta.challenge, laterRule: 'x', keys: [{ ...KEY, laterKeyField: 2 }] },
    },
    entries: plane.entries.map((e) => ({ ...e, laterFraming: true })),
  };
}

/** A copy of `value` with the field at the dotted `path` set to `to`. */
function setAt(value: Record<string, unknown>, path: string, to: unknown): Record<string, unknown> {
  const copy = structuredClone(value);
  const keys = path.split('.');
  let at = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[keys.at(-1) as string] = to;
  return copy;
}

/** Both ways a plane answer reaches the agent: a long poll's body and a stream's line. */
const readers = [
  { how: 'a long poll', read: (answer: unknown) => planeAnswer(JSON.stringify({ data: answer })).data },
  { how: 'a stream line', read: (answer: unknown) => planeStreamLine(JSON.stringify(answer)) },
];

describe.each(readers)('a plane answer read from $how', ({ read }) => {
  it('drops keys it does not know in the framing, the meta and its parts, and takes the plane', () => {
    const taken = read(ahead());
    expect(taken).toEqual(full());
    // Taken as a whole plane: its entries check out against their hashes.
    expect(LuaPlane.full(taken as PlaneFull).entries.size).toBe(1);
  });

  it('drops a delta change’s unknown framing key and keeps its value', () => {
    const { entries: _entries, ...plane } = full();
    const { forceSSLCode: _code, ...value } = domain(1, 'site.example.com', [upstream(9090)]);
    const change = {
      op: 'put',
      kind: 'domain',
      key: 'site.example.com',
      hash: entryHash('domain', 'site.example.com', value),
      value,
    };
    const delta: PlaneDelta = {
      ...plane,
      type: 'delta',
      from: '7',
      to: '8',
      changes: [change as PlaneDelta['changes'][number]],
    };
    const taken = read({ ...delta, changes: [{ ...change, laterFraming: 1 }] });
    expect(taken).toEqual(delta);
  });

  it.each([
    ['meta.cacheEpoch', -1],
    ['meta.allowPrivateOrigins', 'yes'],
    ['meta.limits.invalidDomainPerMinute', 'x'],
    ['meta.challenge.keys.0.secret', 'short'],
    ['entries.0.hash', 'nothex'],
    ['planeHash', 42],
  ])('still refuses a bad %s beside the unknown keys', (field, bad) => {
    const spoiled = setAt(ahead(), field, bad);
    expect(() => read(spoiled)).toThrow(NodeApiError);
    expect(() => read(spoiled)).toThrow(field.replace(/\.(\d+)/g, '[$1]'));
  });

  it('keeps an entry value strict: an unknown key in a domain is refused before anything changes', () => {
    const plane = full();
    const entry = plane.entries[0];
    if (!entry) throw new Error('no entry');
    const value = { ...(entry.value as object), laterDomainField: true };
    const taken = read({ ...plane, entries: [{ ...entry, value, hash: entryHash('domain', entry.key, value) }] });
    expect(() => LuaPlane.full(taken as PlaneFull)).toThrow(PlaneRefusedError);
  });
});

describe('the snapshot’s data plane', () => {
  const dataPlane = document('one', [domain(1, 'site.example.com', [upstream(8080)])]);
  const answer = (plane: Record<string, unknown>) =>
    snapshotAnswer(JSON.stringify({ data: snapshotOf(plane as never) }));

  it('drops a top-level key and a limit it does not know', () => {
    const taken = answer({ ...dataPlane, laterList: [], limits: { ...dataPlane.limits, laterLimit: 3 } });
    expect(taken.data?.dataPlane).toEqual(answer(dataPlane).data?.dataPlane);
  });

  it('still refuses a bad known field beside them', () => {
    expect(() => answer({ ...dataPlane, laterList: [], cacheEpoch: -1 })).toThrow(SnapshotRefusedError);
    expect(() => answer({ ...dataPlane, domains: [{ ...dataPlane.domains[0], laterDomainField: 1 }] })).toThrow(
      SnapshotRefusedError,
    );
  });
});
