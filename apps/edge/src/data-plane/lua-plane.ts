import { createHash } from 'node:crypto';
import {
  type EdgeDomain,
  entryId,
  type PlaneAnswer,
  type PlaneDelta,
  type PlaneEntry,
  type PlaneFull,
  type PlaneMeta,
  planeEntryValueSchemas,
} from '@rampart/contract';
import { entryHash, hashText, PLANE_HASH_MODULUS, planeHash, updatePlaneHash } from '@rampart/contract/plane-hash';
import { type OriginLookup, originHostNames, resolvedOrigin } from './origin-resolver.js';

/**
 * The node's data plane as the agent holds it (docs/data-plane-deltas.md "Edge"): the control
 * plane's entries at one sequence, and the records nginx's store holds for them (rampart.store:
 * `d:<name>`, `c:<id>`, …), each with a 48-bit hash. A delta is checked against the contract and
 * the hashes before anything changes; what it changes in nginx is the records whose hash moved.
 */

/** One record of nginx's store: its key ("<kind>:<id>"), hash, and value (null: deleted). */
export type LuaOp = [key: string, hash: string, value: unknown];

interface LuaRecord {
  hash: string;
  value: unknown;
}

/** Why a plane answer cannot be taken: the agent asks for a whole plane instead. */
export class PlaneRefusedError extends Error {
  override readonly name = 'PlaneRefusedError';
}

const LUA_KIND: Record<PlaneEntry['kind'], string> = {
  domain: 'd',
  certificate: 'c',
  cache: 'p',
  module: 'm',
  settings: 's',
  firewall: 'f',
  acme: 'a',
};

/** The hash of a record derived from an entry: its key, the entry's hash, and what was added to it. */
function derivedHash(key: string, entryHashText: string, extra = ''): string {
  return createHash('sha256').update(`${key}\0${entryHashText}\0${extra}`).digest('hex').slice(0, 12);
}

/**
 * The records of nginx's store one entry stands for (the meta's force-SSL code goes into domains,
 * and a domain's origin host names are replaced by the addresses they resolved to).
 */
function entryRecords(entry: PlaneEntry, forceSSLCode: number, origins: OriginLookup | null): Map<string, LuaRecord> {
  const out = new Map<string, LuaRecord>();
  if (entry.kind === 'acme') {
    for (const challenge of entry.value as { host: string; token: string; keyAuthorization: string }[]) {
      // Of the challenge alone: two sites' entries naming one challenge stand for the same record.
      const key = `a:${challenge.host}/${challenge.token}`;
      out.set(key, { hash: derivedHash(key, '', challenge.keyAuthorization), value: challenge.keyAuthorization });
    }
    return out;
  }
  const key = `${LUA_KIND[entry.kind]}:${entry.key}`;
  if (entry.kind === 'domain') {
    const resolved = resolvedOrigin((entry.value as EdgeDomain).origin, origins);
    out.set(key, {
      hash: derivedHash(key, entry.hash, resolved ? `${forceSSLCode}\0${resolved.signature}` : String(forceSSLCode)),
      value: { ...(entry.value as object), forceSSLCode, ...(resolved ? { origin: resolved.origin } : {}) },
    });
  } else {
    out.set(key, { hash: derivedHash(key, entry.hash), value: entry.value });
  }
  return out;
}

/** The records the meta stands for (the challenge keys, the operator's pages, the node's values). */
function metaRecords(meta: PlaneMeta): Map<string, LuaRecord> {
  const out = new Map<string, LuaRecord>();
  const add = (key: string, value: unknown) => out.set(key, { hash: entryHash('lua', key, value), value });
  if (meta.challenge.keys.length > 0) add('x:', meta.challenge);
  if ((meta.errorPages ?? []).length > 0) add('pages:', meta.errorPages);
  add('n:', { cacheEpoch: meta.cacheEpoch });
  return out;
}

/** The values of a delta or full push that are not records (rampart.validate delta_meta). */
export function luaMeta(meta: PlaneMeta): {
  limits: PlaneMeta['limits'];
  geoDatabase: string | null;
  abuseIPs: string | null;
} {
  return { limits: meta.limits, geoDatabase: meta.geoDatabase ?? null, abuseIPs: meta.abuseIPs ?? null };
}

/** Checks one entry as the contract says and that its hash is the hash of its value. */
function checkEntry(kind: PlaneEntry['kind'], key: string, hash: string | undefined, value: unknown, where: string) {
  const schema = planeEntryValueSchemas[kind];
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PlaneRefusedError(
      `${where} ${kind} ${key}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`,
    );
  }
  if (hash === undefined || entryHash(kind, key, value) !== hash) {
    throw new PlaneRefusedError(`${where} ${kind} ${key}: its hash is not the hash of its value`);
  }
}

export interface PlaneState {
  /** The control plane's sequence this plane is at (a decimal bigint). */
  readonly to: string;
  readonly meta: PlaneMeta;
  readonly metaHash: string;
  readonly planeHash: string;
  readonly entries: ReadonlyMap<string, PlaneEntry>;
}

export class LuaPlane implements PlaneState {
  private records = new Map<string, LuaRecord>();
  /** How many entries (and the meta) stand for each record: one goes when the last of them does. */
  private refs = new Map<string, number>();
  /** The sum of the records' hashes mod 2^48, as nginx's store reports it (`sum`). */
  private sumValue = 0;
  /** What the origins' host names resolved to (null: none known, every such origin unresolved). */
  private origins: OriginLookup | null = null;
  /** The origins' host names and how many domain entries name each (kept as entries change). */
  private names = new Map<string, number>();

  private constructor(
    public to: string,
    public meta: PlaneMeta,
    public metaHash: string,
    public planeHash: string,
    public entries: Map<string, PlaneEntry>,
  ) {
    for (const entry of entries.values()) {
      this.countNames(entry, 1);
      for (const [k, r] of entryRecords(entry, meta.forceSSLCode, null)) {
        this.ref(k, 1);
        this.put(k, r);
      }
    }
    for (const [k, r] of metaRecords(meta)) {
      this.ref(k, 1);
      this.put(k, r);
    }
  }

  /** A whole plane from the control plane, checked (every entry's value and hash, the plane hash). */
  static full(answer: PlaneFull): LuaPlane {
    const entries = new Map<string, PlaneEntry>();
    for (const entry of answer.entries) {
      checkEntry(entry.kind, entry.key, entry.hash, entry.value, 'full plane:');
      const id = entryId(entry.kind, entry.key);
      if (entries.has(id)) throw new PlaneRefusedError(`full plane: ${entry.kind} ${entry.key} twice`);
      entries.set(id, entry);
    }
    const hash = planeHash([...entries.values()].map((e) => e.hash));
    if (hash !== answer.planeHash)
      throw new PlaneRefusedError(`full plane: its entries hash to ${hash}, not ${answer.planeHash}`);
    return new LuaPlane(answer.to, answer.meta, answer.metaHash, answer.planeHash, entries);
  }

  /** A plane kept on disk (checked when it was taken): the entries are not checked again. */
  static restore(state: PlaneState): LuaPlane {
    return new LuaPlane(state.to, state.meta, state.metaHash, state.planeHash, new Map(state.entries));
  }

  get sum(): string {
    return hashText(this.sumValue);
  }

  get domainCount(): number {
    let n = 0;
    for (const key of this.records.keys()) if (key.startsWith('d:')) n++;
    return n;
  }

  /** Every record, for a push that replaces all nginx holds. */
  allOps(): LuaOp[] {
    return [...this.records].map(([key, r]) => [key, r.hash, r.value]);
  }

  private put(key: string, record: LuaRecord): void {
    const old = this.records.get(key);
    if (old) this.sumValue = (this.sumValue - Number.parseInt(old.hash, 16) + PLANE_HASH_MODULUS) % PLANE_HASH_MODULUS;
    this.records.set(key, record);
    this.sumValue = (this.sumValue + Number.parseInt(record.hash, 16)) % PLANE_HASH_MODULUS;
  }

  private ref(key: string, by: number): number {
    const n = (this.refs.get(key) ?? 0) + by;
    if (n <= 0) this.refs.delete(key);
    else this.refs.set(key, n);
    return n;
  }

  private remove(key: string): void {
    const old = this.records.get(key);
    if (!old) return;
    this.sumValue = (this.sumValue - Number.parseInt(old.hash, 16) + PLANE_HASH_MODULUS) % PLANE_HASH_MODULUS;
    this.records.delete(key);
  }

  /**
   * Checks `delta` (it follows this plane's sequence, its entries are the contract's and their
   * hashes theirs, and the plane hash after it is the one it names) and applies it; answers what
   * changes in nginx's store. Throws PlaneRefusedError and changes nothing when a check fails.
   */
  applyDelta(delta: PlaneDelta): LuaOp[] {
    if (delta.from !== this.to) throw new PlaneRefusedError(`delta from ${delta.from}, the node is at ${this.to}`);
    let hash = this.planeHash;
    const touched = new Map<string, PlaneEntry | null>();
    for (const change of delta.changes) {
      const id = entryId(change.kind, change.key);
      const before = touched.has(id) ? touched.get(id) : this.entries.get(id);
      if (change.op === 'put') {
        checkEntry(change.kind, change.key, change.hash, change.value, 'delta:');
        const entry: PlaneEntry = { kind: change.kind, key: change.key, hash: change.hash ?? '', value: change.value };
        hash = updatePlaneHash(hash, before?.hash, entry.hash);
        touched.set(id, entry);
      } else {
        hash = updatePlaneHash(hash, before?.hash, undefined);
        touched.set(id, null);
      }
    }
    if (hash !== delta.planeHash)
      throw new PlaneRefusedError(`delta to ${delta.to}: the plane hashes to ${hash}, not ${delta.planeHash}`);

    // Checked: the records of the entries it touched, and of the meta, move to their new values;
    // a record goes when no entry stands for it any more.
    const named = new Set<string>();
    const after = new Map<string, LuaRecord>();
    const forceChanged = delta.meta.forceSSLCode !== this.meta.forceSSLCode;
    for (const [id, entry] of touched) {
      const old = this.entries.get(id);
      if (old)
        for (const key of entryRecords(old, this.meta.forceSSLCode, this.origins).keys()) {
          this.ref(key, -1);
          named.add(key);
        }
      if (entry)
        for (const [key, record] of entryRecords(entry, delta.meta.forceSSLCode, this.origins)) {
          this.ref(key, 1);
          after.set(key, record);
        }
    }
    for (const key of metaRecords(this.meta).keys()) {
      this.ref(key, -1);
      named.add(key);
    }
    for (const [key, record] of metaRecords(delta.meta)) {
      this.ref(key, 1);
      after.set(key, record);
    }
    if (forceChanged) {
      // Every domain carries the zone's redirect code: all of them change.
      for (const [id, entry] of this.entries) {
        if (entry.kind !== 'domain' || touched.has(id)) continue;
        for (const [key, record] of entryRecords(entry, delta.meta.forceSSLCode, this.origins)) after.set(key, record);
      }
    }
    for (const [id, entry] of touched) {
      const old = this.entries.get(id);
      if (old) this.countNames(old, -1);
      if (entry) {
        this.countNames(entry, 1);
        this.entries.set(id, entry);
      } else this.entries.delete(id);
    }
    const ops: LuaOp[] = [];
    for (const key of named) {
      const old = this.records.get(key);
      if (old && !this.refs.has(key)) {
        this.remove(key);
        ops.push([key, old.hash, null]);
      }
    }
    for (const [key, record] of after) {
      if (this.records.get(key)?.hash === record.hash) continue;
      this.put(key, record);
      ops.push([key, record.hash, record.value]);
    }
    this.to = delta.to;
    this.meta = delta.meta;
    this.metaHash = delta.metaHash;
    this.planeHash = delta.planeHash;
    return ops;
  }

  /** Every host name the plane's origins name. */
  hostNames(): Set<string> {
    return new Set(this.names.keys());
  }

  private countNames(entry: PlaneEntry, by: 1 | -1): void {
    if (entry.kind !== 'domain') return;
    for (const name of new Set(originHostNames((entry.value as EdgeDomain).origin))) {
      const n = (this.names.get(name) ?? 0) + by;
      if (n > 0) this.names.set(name, n);
      else this.names.delete(name);
    }
  }

  /**
   * Takes what host names resolve to from `origins` and rebuilds the records of the domains that
   * name one of `changed` (every name when `changed` is null); answers what changes in nginx's store.
   */
  resolveOrigins(origins: OriginLookup, changed: ReadonlySet<string> | null): LuaOp[] {
    this.origins = origins;
    const ops: LuaOp[] = [];
    if (changed?.size === 0) return ops;
    for (const entry of this.entries.values()) {
      if (entry.kind !== 'domain') continue;
      const names = originHostNames((entry.value as EdgeDomain).origin);
      if (names.length === 0 || (changed !== null && !names.some((h) => changed.has(h)))) continue;
      for (const [key, record] of entryRecords(entry, this.meta.forceSSLCode, origins)) {
        if (this.records.get(key)?.hash === record.hash) continue;
        this.put(key, record);
        ops.push([key, record.hash, record.value]);
      }
    }
    return ops;
  }

  /** The ops that turn the records of `previous` into this plane's (a whole plane after another). */
  opsFrom(previous: LuaPlane | null): LuaOp[] {
    if (previous === null) return this.allOps();
    const ops: LuaOp[] = [];
    for (const [key, old] of previous.records) if (!this.records.has(key)) ops.push([key, old.hash, null]);
    for (const [key, record] of this.records) {
      if (previous.records.get(key)?.hash !== record.hash) ops.push([key, record.hash, record.value]);
    }
    return ops;
  }

  /** What is kept on disk (plane-log.ts). */
  toJSON(): { to: string; meta: PlaneMeta; metaHash: string; planeHash: string; entries: PlaneEntry[] } {
    return {
      to: this.to,
      meta: this.meta,
      metaHash: this.metaHash,
      planeHash: this.planeHash,
      entries: [...this.entries.values()],
    };
  }
}

/** A plane answer's kind and sequence, for logs. */
export function describeAnswer(answer: PlaneAnswer): string {
  return answer.type === 'full'
    ? `full plane at ${answer.to} (${answer.entries.length} entries)`
    : `delta ${answer.from} → ${answer.to} (${answer.changes.length} changes)`;
}
