import type { RefusalTally } from '../edge/refusal-tally.js';
import type { AggregateMinute, CollapsedBlocks } from '../routes/analytics-aggregates.js';
import type { EdgeEvent } from '../routes/analytics-events.js';
import type { HIGH_DIM_NAMES } from './event-counters.js';
import { HeavyHitters } from './heavy-hitters.js';
import { HyperLogLog } from './hyperloglog.js';
import type { MinuteValues } from './interner.js';

/**
 * What a node ships once per minute and domain, at the minute's close (minute-aggregator.ts): the
 * heavy hitters of addresses, URLs, user agents and referers, the address sketches and the blocked
 * requests collapsed for the logs. Unlike counters these do not need to show within seconds, and
 * they are what made a node-minute heavy: shipped with every 15 s partial, each partial listed its
 * own heavy hitters (four lists of up to k values per domain and partial). Kept across the
 * minute's partials and shipped whole with its closing record (a correction of a closed minute
 * carries its own).
 *
 * A summary ships only the values the domain's traffic listed (a domain with 3 distinct URLs ships
 * 3), at most k (AGGREGATE_TOP_K per domain and minute; the schema refuses more than
 * AGGREGATE_TOP_K_MAX): exact while the distinct values are at most k, else within its floor ≤
 * n / (k + 1) (heavy-hitters.ts).
 */

/** The collapsed record's key of an address ("" the overflow record) and decision. */
export const collapseKey = (ip: string, kind: string, rule: number, action: string) =>
  `${ip}|${kind}|${rule}|${action}`;

/** The id of a sample made of a tally alone (no logged request yet): a logged request replaces it. */
export const TALLY_SAMPLE_ID = 'tally';

type TopName = (typeof HIGH_DIM_NAMES)[number] | 'ipBlacklisted' | 'ipWaf';

export class MinuteSketches {
  readonly top: Record<TopName, HeavyHitters>;
  readonly ips = new HyperLogLog();
  blockedIps: HyperLogLog | null = null;
  blacklistedIps: HyperLogLog | null = null;
  readonly collapsed = new Map<string, CollapsedBlocks>();

  constructor(
    readonly minute: number,
    readonly domainId: number,
    k: number,
    aux: number,
    /** The minute's interned values, shared by its domains' summaries. */
    readonly values: MinuteValues,
  ) {
    this.top = {
      url: new HeavyHitters(k, aux, undefined, values.url),
      referer: new HeavyHitters(k, aux, undefined, values.referer),
      userAgent: new HeavyHitters(k, aux, undefined, values.userAgent),
      ip: new HeavyHitters(k, aux, undefined, values.ip),
      ipBlacklisted: new HeavyHitters(k, aux, undefined, values.ip),
      ipWaf: new HeavyHitters(k, aux, undefined, values.ip),
    };
  }

  /** Blocked requests into their collapsed record (or the minute's overflow record of their decision, past `max`). */
  collapse(e: EdgeEvent, n: number, bytesIn: number, bytesOut: number, time: number, max: number): void {
    let key = collapseKey(e.ip, e.fwKind, e.fwRule, e.fwAction);
    let record = this.collapsed.get(key);
    if (record === undefined && this.collapsed.size >= max) {
      key = collapseKey('', e.fwKind, e.fwRule, e.fwAction);
      record = this.collapsed.get(key);
    }
    if (record === undefined) {
      const ip = key.startsWith('|') ? '' : e.ip;
      this.collapsed.set(key, {
        minute: this.minute,
        domainId: this.domainId,
        ip,
        fwKind: e.fwKind,
        fwRule: e.fwRule,
        fwAction: e.fwAction,
        count: n,
        first: time,
        last: time,
        bytesIn,
        bytesOut,
        sample: e,
      });
      return;
    }
    record.count += n;
    // nginx flushes its log a second apart while tallies are drained at once: the logged first
    // request may come after its tally, and becomes the sample (its id is the one its page showed).
    if (
      record.sample.id === TALLY_SAMPLE_ID &&
      e.id !== TALLY_SAMPLE_ID &&
      key === collapseKey(e.ip, e.fwKind, e.fwRule, e.fwAction)
    ) {
      record.sample = e;
    }
    if (time < record.first) record.first = time;
    if (time > record.last) record.last = time;
    record.bytesIn += bytesIn;
    record.bytesOut += bytesOut;
  }

  /** The record's fields these make (each summary pruned to its shipped capacity). */
  toRecord(): Pick<AggregateMinute, 'top' | 'ips' | 'blockedIps' | 'blacklistedIps'> {
    const top = this.top;
    const shipped = (h: HeavyHitters) => h.toJSON();
    return {
      top: {
        url: shipped(top.url),
        referer: shipped(top.referer),
        userAgent: shipped(top.userAgent),
        ip: shipped(top.ip),
        ...(top.ipBlacklisted.n > 0 ? { ipBlacklisted: shipped(top.ipBlacklisted) } : {}),
        ...(top.ipWaf.n > 0 ? { ipWaf: shipped(top.ipWaf) } : {}),
      } as NonNullable<AggregateMinute['top']>,
      ips: this.ips.toJSON(),
      ...(this.blockedIps ? { blockedIps: this.blockedIps.toJSON() } : {}),
      ...(this.blacklistedIps ? { blacklistedIps: this.blacklistedIps.toJSON() } : {}),
    };
  }
}

/** A sample made of a tally alone (no logged request of its minute yet): no URL, method OTHER. */
export function tallySample(t: RefusalTally): EdgeEvent {
  return {
    id: TALLY_SAMPLE_ID,
    time: t.last,
    domainId: t.domainId,
    ip: t.ip,
    method: '',
    scheme: 'http',
    httpVersion: '',
    host: '',
    path: '',
    status: t.status,
    bytesIn: 0,
    bytesOut: 0,
    requestMs: 0,
    upstreamMs: -1,
    upstreamStatus: 0,
    cacheStatus: '',
    userAgent: '',
    referer: '',
    fwKind: t.fwKind,
    fwRule: t.fwRule,
    fwAction: t.fwAction,
    wafPart: '',
    wafExcerpt: '',
    wafName: '',
  };
}
