import { hash52 } from './hyperloglog.js';

/**
 * Strings as small integers, for the summaries of one minute (minute-aggregator.ts): each value is
 * hashed by the engine once per request (one Map lookup), and the summaries of every domain of
 * the minute then work on the integer (heavy-hitters.ts), without a string key per summary.
 */
export class Interner {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];

  /** The value's id, given it if new. */
  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(value, id);
      this.values.push(value);
    }
    return id;
  }

  /** The value's id, or -1 if it has none. */
  find(value: string): number {
    return this.ids.get(value) ?? -1;
  }

  get size(): number {
    return this.values.length;
  }
}

/** The values of one minute's requests as ids, shared by its domains' summaries (interner.ts). */
export class MinuteValues {
  readonly url = new Interner();
  readonly referer = new Interner();
  readonly userAgent = new Interner();
  readonly ip = new Interner();
  /** Address id → its 52-bit hash (hashed once a minute). */
  private readonly ipHashes: number[] = [];

  ipHash(id: number): number {
    let h = this.ipHashes[id];
    if (h === undefined) {
      h = hash52(this.ip.values[id] as string);
      this.ipHashes[id] = h;
    }
    return h;
  }
}
