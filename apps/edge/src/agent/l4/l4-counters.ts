import { execFile } from 'node:child_process';
import {
  L4_SOURCES_PER_PORT,
  type L4CounterRecord,
  type L4IpProtocol,
  type L4Outcome,
  type L4PortRules,
  tcpFlagsOf,
} from '@rampart/contract';
import { COUNTER_SETS, type CountStage, L4_TABLE } from './l4-rules-render.js';

/**
 * Reads the layer-4 counters the kernel keeps in the agent's table (l4-rules-render.ts, "Counters")
 * with one `nft -j -f -` listing the counter sets, and turns them into records of what happened
 * since the previous reading (contract edge/l4-counters.ts), stamped with the minute of the
 * reading. The kernel's counters only grow while a set lives, so a reading is the difference to
 * the previous one, element by element, with three exceptions:
 *
 * - a set of another table is a new set (the table was replaced: every counter started at 0): its
 *   counters are all new; what the old table counted after the previous reading is lost (at most
 *   one interval, at a rules change). A set is known by its table's handle and its own: nft gives
 *   a table made again its sets' old handles, while a table's handle is new each time;
 * - an element whose counter went down was dropped (an idle source expired) and added again: its
 *   counter is all new;
 * - an element gone was dropped: nothing to count.
 *
 * Dropped = entered − passed, per port, protocol, flag combination and source (the table counts
 * both stages with the same keys). The ports' ids come from the document in force (`ports`): the
 * kernel counts by protocol and port number.
 */

const NFT_TIMEOUT_MS = 10_000;
const MAX_OUTPUT = 64 * 1024 * 1024;

/** One counter: packets and bytes. */
interface Count {
  packets: number;
  bytes: number;
}

/**
 * A listing of the counter sets: set name → what the set is known by (its table's handle and its
 * own, "table.set") and its elements' counters by key text.
 */
export type CounterListing = Map<string, { handle: string; elements: Map<string, Count> }>;

type Json = unknown;

const PROTOCOL_NUMBERS: Record<string, string> = {
  '1': 'icmp',
  '6': 'tcp',
  '17': 'udp',
  '47': 'gre',
  '58': 'ipv6-icmp',
};
const protoName = (v: Json): string => {
  const s = String(v);
  return PROTOCOL_NUMBERS[s] ?? s;
};

/** The key text of an element's value: its concatenated parts joined by " . ". */
function keyText(val: Json): string | null {
  if (typeof val === 'string' || typeof val === 'number') return String(val);
  if (val !== null && typeof val === 'object' && 'concat' in val && Array.isArray(val.concat)) {
    const parts = val.concat.map((p: Json) => (typeof p === 'string' || typeof p === 'number' ? String(p) : null));
    return parts.includes(null) ? null : parts.join(' . ');
  }
  return null;
}

/** The counter sets of an `nft -j` listing (anything else in it is left aside). */
export function parseCounterListing(text: string): CounterListing {
  const out: CounterListing = new Map();
  const doc = JSON.parse(text) as { nftables?: Json[] };
  for (const item of doc.nftables ?? []) {
    const set = (item as { set?: Record<string, Json> }).set;
    if (!set || typeof set.name !== 'string' || set.table !== L4_TABLE) continue;
    const elements = new Map<string, Count>();
    for (const e of Array.isArray(set.elem) ? set.elem : []) {
      const elem = (e as { elem?: { val?: Json; counter?: Count } }).elem;
      const key = keyText(elem?.val ?? e);
      const counter = elem?.counter;
      if (key === null || !counter || !Number.isSafeInteger(counter.packets) || !Number.isSafeInteger(counter.bytes))
        continue;
      elements.set(key, { packets: counter.packets, bytes: counter.bytes });
    }
    out.set(set.name, { handle: String(set.handle), elements });
  }
  return out;
}

/** The handle of the agent's table in an `nft -j list tables` listing (null without the table). */
export function parseTableHandle(text: string): number | null {
  const doc = JSON.parse(text) as { nftables?: Json[] };
  for (const item of doc.nftables ?? []) {
    const table = (item as { table?: Record<string, Json> }).table;
    if (table?.family === 'inet' && table.name === L4_TABLE && Number.isSafeInteger(table.handle))
      return table.handle as number;
  }
  return null;
}

/** Listings a reading makes again when the table was replaced while it listed (then it gives up). */
const LISTING_TRIES = 3;

/**
 * Every set of the entering stage is read before any of the passing stage: a packet a reading
 * counts as passed was then counted as entering in that reading or an earlier one, so "dropped =
 * entered − passed" never runs ahead of itself (recordsOf carries the difference).
 */
const ENTERING_SETS = COUNTER_SETS.filter((name) => /_all\d?$/.test(name));
const OTHER_SETS = COUNTER_SETS.filter((name) => !ENTERING_SETS.includes(name));

/**
 * Lists the counter sets (an empty listing before the agent's table exists): one `nft -j list set`
 * per set, all at once (nft 1.0.6 reads a file of commands as JSON under -j, and lists nothing for
 * JSON list commands; listing the whole table would list the region sets too).
 */
export async function listCounters(nft: readonly string[]): Promise<CounterListing> {
  // The sets are listed by several commands: the table's handle read before and after tells that
  // they all belong to one table (a replacement in between gives the table a new handle: list again).
  for (let attempt = 0; attempt < LISTING_TRIES; attempt++) {
    const table = await tableHandle(nft);
    if (table === null) return new Map();
    const listings = [
      ...(await Promise.all(ENTERING_SETS.map((name) => listSet(nft, name)))),
      ...(await Promise.all(OTHER_SETS.map((name) => listSet(nft, name)))),
    ];
    if ((await tableHandle(nft)) !== table) continue;
    const out: CounterListing = new Map();
    for (const listing of listings)
      for (const [name, set] of listing) out.set(name, { ...set, handle: `${table}.${set.handle}` });
    return out;
  }
  throw new Error(`the table was replaced during each of ${LISTING_TRIES} listings of its counters`);
}

function tableHandle(nft: readonly string[]): Promise<number | null> {
  return runList(nft, ['list', 'tables', 'inet'], 'nft list tables', parseTableHandle, null);
}

function listSet(nft: readonly string[], name: string): Promise<CounterListing> {
  return runList(nft, ['list', 'set', 'inet', L4_TABLE, name], `nft list set ${name}`, parseCounterListing, new Map());
}

/** Runs `nft -j <args>` and parses its output; `absent` when the table (or the set) does not exist. */
function runList<T>(
  nft: readonly string[],
  args: readonly string[],
  what: string,
  parse: (text: string) => T,
  absent: T,
): Promise<T> {
  const [file, ...lead] = nft;
  if (file === undefined) return Promise.reject(new Error('no nft command'));
  return new Promise((resolve, reject) => {
    execFile(
      file,
      [...lead, '-j', ...args],
      { timeout: NFT_TIMEOUT_MS, maxBuffer: MAX_OUTPUT, encoding: 'utf8' },
      (err, stdout, stderr) => {
        // No table yet (or a table without this set): nothing counted.
        if (err && /No such file or directory/.test(stderr)) return resolve(absent);
        if (err) return reject(new Error(`${what}: ${stderr.trim().slice(0, 500) || err.message}`));
        try {
          resolve(parse(stdout));
        } catch (e) {
          reject(e);
        }
      },
    );
  });
}

/** What changed in each set between two listings (see the file's comment for the rules). */
export function deltasOf(previous: CounterListing, current: CounterListing): Map<string, Map<string, Count>> {
  const out = new Map<string, Map<string, Count>>();
  for (const [name, set] of current) {
    const before = previous.get(name);
    const same = before !== undefined && before.handle === set.handle;
    const changed = new Map<string, Count>();
    for (const [key, now] of set.elements) {
      const was = same ? before.elements.get(key) : undefined;
      const delta =
        was && now.packets >= was.packets && now.bytes >= was.bytes
          ? { packets: now.packets - was.packets, bytes: now.bytes - was.bytes }
          : now;
      if (delta.packets > 0 || delta.bytes > 0) changed.set(key, delta);
    }
    out.set(name, changed);
  }
  return out;
}

const add = (map: Map<string, Count>, key: string, c: Count) => {
  const had = map.get(key);
  if (had) {
    had.packets += c.packets;
    had.bytes += c.bytes;
  } else map.set(key, { ...c });
};

/**
 * The records of one reading's deltas: the ports' ids by `protocol/port` (`portIds`), `minute` the
 * minute stamped on them.
 */
export function recordsOf(
  deltas: Map<string, Map<string, Count>>,
  portIds: ReadonlyMap<string, number>,
  minute: number,
  /**
   * Per `portId|dimension|key`, what the passing stage counted ahead of the entering one (packets
   * that arrived between the two stages' reads), kept by the reader from one reading to the next:
   * the next reading's entering count covers them, so they are not dropped ones.
   */
  carry: Map<string, Count> = new Map(),
): L4CounterRecord[] {
  // Per stage: `portId|dimension|key` → counts.
  const stages: Record<CountStage, Map<string, Count>> = { all: new Map(), pass: new Map() };
  const idOf = (proto: string, port: string) => portIds.get(`${proto}/${port}`);
  for (const stage of ['all', 'pass'] as const) {
    const into = stages[stage];
    for (const [key, c] of deltas.get(`cnt_${stage}`) ?? []) {
      const [proto = '', port = ''] = key.split(' . ');
      const id = idOf(protoName(proto), port);
      if (id !== undefined) add(into, `${id}|protocol|${protoName(proto)}`, c);
    }
    for (const [key, c] of deltas.get(`cntf_${stage}`) ?? []) {
      const [port = '', flags = ''] = key.split(' . ');
      const id = idOf('tcp', port);
      if (id !== undefined && /^\d+$/.test(flags)) add(into, `${id}|tcpFlags|${tcpFlagsOf(Number(flags))}`, c);
    }
    for (const family of ['4', '6']) {
      for (const [key, c] of deltas.get(`cnts_${stage}${family}`) ?? []) {
        const [proto = '', port = '', ip = ''] = key.split(' . ');
        const id = idOf(protoName(proto), port);
        if (id !== undefined && ip !== '') add(into, `${id}|source|${ip}`, c);
      }
    }
  }
  const records: L4CounterRecord[] = [];
  const push = (k: string, outcome: L4Outcome, c: Count) => {
    if (c.packets <= 0 && c.bytes <= 0) return;
    const [id = '0', dimension, key = ''] = k.split('|');
    records.push({
      minute,
      portId: Number(id),
      outcome,
      dimension: dimension as L4CounterRecord['dimension'],
      key,
      packets: c.packets,
      bytes: c.bytes,
    });
  };
  for (const k of new Set([...stages.all.keys(), ...stages.pass.keys(), ...carry.keys()])) {
    const all = stages.all.get(k) ?? { packets: 0, bytes: 0 };
    const pass = stages.pass.get(k) ?? { packets: 0, bytes: 0 };
    const ahead = carry.get(k) ?? { packets: 0, bytes: 0 };
    const packets = all.packets - pass.packets - ahead.packets;
    const bytes = all.bytes - pass.bytes - ahead.bytes;
    push(k, 'drop', { packets: Math.max(0, packets), bytes: Math.max(0, bytes) });
    if (packets < 0 || bytes < 0) carry.set(k, { packets: Math.max(0, -packets), bytes: Math.max(0, -bytes) });
    else carry.delete(k);
  }
  for (const [k, pass] of stages.pass) push(k, 'pass', pass);
  // ICMP and ICMPv6 count as one protocol.
  const node = new Map<string, Count>();
  for (const [key, c] of deltas.get('cnt_node') ?? []) {
    const name = protoName(key);
    const proto: L4IpProtocol | null = name === 'gre' ? 'gre' : name === 'icmp' || name === 'ipv6-icmp' ? 'icmp' : null;
    if (proto) add(node, `0|protocol|${proto}`, c);
  }
  for (const [k, c] of node) push(k, 'pass', c);
  return boundSources(records);
}

/** Keeps the L4_SOURCES_PER_PORT sources of most packets per port and outcome. */
export function boundSources(records: L4CounterRecord[]): L4CounterRecord[] {
  const groups = new Map<string, L4CounterRecord[]>();
  const out: L4CounterRecord[] = [];
  for (const r of records) {
    if (r.dimension !== 'source') {
      out.push(r);
      continue;
    }
    const g = `${r.portId}|${r.outcome}`;
    const list = groups.get(g);
    if (list) list.push(r);
    else groups.set(g, [r]);
  }
  for (const list of groups.values()) {
    list.sort((a, b) => b.packets - a.packets || b.bytes - a.bytes);
    out.push(...list.slice(0, L4_SOURCES_PER_PORT));
  }
  return out;
}

/** `protocol/port` → the port's id, for the ports of a document. */
export function portIdsOf(ports: readonly L4PortRules[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of ports) {
    for (const proto of p.protocol === 'both' ? ['tcp', 'udp'] : [p.protocol]) out.set(`${proto}/${p.port}`, p.id);
  }
  return out;
}

export interface L4CounterReaderOptions {
  /** The nft command and its leading arguments (default `['nft']`). */
  nft?: readonly string[];
  /** The ports of the document in force (the firewall's `applied`). */
  ports: () => readonly L4PortRules[];
  /** Takes the records of a reading, when given. */
  sink?: (records: L4CounterRecord[]) => void | Promise<void>;
  now?: () => number;
}

/** The table a listing's sets belong to (their handles are "table.set"), null for an empty listing. */
function tableOf(listing: CounterListing): string | null {
  for (const set of listing.values()) return set.handle.split('.')[0] ?? null;
  return null;
}

export class L4CounterReader {
  private previous: CounterListing = new Map();
  /** What the passing stage counted ahead of the entering one (recordsOf). */
  private readonly carry = new Map<string, Count>();
  private readonly nft: readonly string[];
  /** Records handed to the sink since the agent started. */
  read = { readings: 0, records: 0 };

  constructor(private readonly options: L4CounterReaderOptions) {
    this.nft = options.nft ?? ['nft'];
  }

  /** Reads the counters once and hands what changed to the sink; answers the records. */
  async poll(): Promise<L4CounterRecord[]> {
    const current = await listCounters(this.nft);
    // A new table: what the old one passed ahead of its entering count (the carry) was to be
    // matched by that table's next entering count, which went with it; kept, it would swallow as
    // many real drops of the new table.
    if (tableOf(current) !== tableOf(this.previous)) this.carry.clear();
    const deltas = deltasOf(this.previous, current);
    this.previous = current;
    const now = (this.options.now ?? Date.now)();
    const minute = Math.floor(now / 60_000) * 60;
    const records = recordsOf(deltas, portIdsOf(this.options.ports()), minute, this.carry);
    // A key gone from both stages (a port removed, a table replaced) leaves nothing to carry for long.
    if (this.carry.size > 100_000) this.carry.clear();
    this.read.readings++;
    if (records.length > 0) {
      this.read.records += records.length;
      await this.options.sink?.(records);
    }
    return records;
  }
}

/**
 * Sums the readings' records per minute (one batch a minute instead of one per reading); a minute
 * is handed on once a reading of a later minute came, its sources bounded again.
 */
export class L4MinuteAccumulator {
  private readonly minutes = new Map<number, Map<string, L4CounterRecord>>();

  add(records: readonly L4CounterRecord[]): void {
    for (const r of records) {
      let minute = this.minutes.get(r.minute);
      if (!minute) {
        minute = new Map();
        this.minutes.set(r.minute, minute);
      }
      const k = `${r.portId}|${r.outcome}|${r.dimension}|${r.key}`;
      const had = minute.get(k);
      if (had) {
        had.packets += r.packets;
        had.bytes += r.bytes;
      } else minute.set(k, { ...r });
    }
  }

  /** The records of the minutes before `minute` (all with `minute` null), taken out. */
  take(minute: number | null): L4CounterRecord[] {
    const out: L4CounterRecord[] = [];
    for (const [m, records] of [...this.minutes].sort((a, b) => a[0] - b[0])) {
      if (minute !== null && m >= minute) continue;
      this.minutes.delete(m);
      out.push(...boundSources([...records.values()]));
    }
    return out;
  }
}
