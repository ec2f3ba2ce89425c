/**
 * bench:ingest's simulated nodes' payloads, prepared before the timed window: generated requests
 * (the contract's generateTraffic, the domains mapped to the bench's real domain ids) counted by
 * the agent's own aggregate feed (apps/edge/src/agent/aggregate-feed.ts: MinuteAggregator, cut
 * into batches, gzip, spooled as a group), one spool per traffic profile and minute. Beside it,
 * what the generator sent per domain (the contract's addCounters over each request, the one
 * definition of what a statistic counts), and per second (for the lag).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { addCounters, type EdgeEvent, type EventFlags, eventFlagsInto, ROLLUP_COUNTERS } from '@rampart/contract';
import { generateTraffic } from '@rampart/contract/testing';
import { AggregateFeed } from '../../apps/edge/src/agent/aggregate-feed.js';

export interface TrafficPlan {
  /** Distinct traffic profiles; node n ships profile n % profiles. */
  profiles: number;
  /** Nodes shipping each profile, by profile. */
  nodesOf: (profile: number) => number;
  /** Whole UTC minutes of traffic from `start`. */
  minutes: number;
  /** Unix ms of the first minute (a minute's start). */
  start: number;
  /** Browsing and flood requests per second of one node. */
  rps: number;
  floodRps: number;
  /** The real domain id of generated domain i + 1 (one domain per site). */
  domainIds: readonly number[];
  /** Generated domain indexes (1-based) the flood hits. */
  floodDomains: readonly number[];
}

export interface PreparedTraffic {
  /** The spool directory of each profile's minute, [profile][minute]. */
  spools: string[][];
  /** What every node together sent, per real domain id (0: requests for no domain): ROLLUP_COUNTERS order. */
  expected: Map<number, number[]>;
  /** Requests of each profile's minute by second, [profile][minute][second]. */
  perSecond: number[][][];
  /** Every request of every node. */
  requests: number;
  /** The feed's CPU (ms, this process) over the requests it counted, and how many. */
  feedCpuMs: number;
  feedRequests: number;
}

const CHUNK_SECONDS = 5;
const MINUTE = 60_000;
const GRACE_MS = 5000;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export async function prepareTraffic(
  plan: TrafficPlan,
  dir: string,
  log: (msg: string) => void,
): Promise<PreparedTraffic> {
  const expected = new Map<number, number[]>();
  const spools: string[][] = [];
  const perSecond: number[][][] = [];
  let requests = 0;
  let feedCpuMs = 0;
  let feedRequests = 0;
  for (let p = 0; p < plan.profiles; p++) {
    const times = plan.nodesOf(p);
    spools.push([]);
    perSecond.push([]);
    // This profile's counts, added to `expected` times the nodes that ship it.
    const mine = new Map<number, number[]>();
    for (let m = 0; m < plan.minutes; m++) {
      const minuteStart = plan.start + m * MINUTE;
      const spool = path.join(dir, `profile-${p}-minute-${m}`);
      await mkdir(spool, { recursive: true });
      const feed = new AggregateFeed({ dir: spool, aggregator: { graceMs: GRACE_MS } });
      await feed.open();
      // The feed counts lines of a log: a made-up one whose n-th line ends at offset n.
      let offset = 0;
      await feed.start({ inode: '1', offset });
      const seconds = new Array<number>(60).fill(0);
      for (let s = 0; s < 60; s += CHUNK_SECONDS) {
        const chunk = generateTraffic({
          seed: 1 + p * 100_003 + m * 1009 + s,
          start: minuteStart + s * 1000,
          seconds: CHUNK_SECONDS,
          rps: plan.rps,
          domains: plan.domainIds.length,
          addresses: 200_000,
          // Every request inside its second (no disorder): a minute's requests are the minute's own.
          jitterMs: 0,
          flood: plan.floodRps > 0 ? { domains: plan.floodDomains, addresses: 500, rps: plan.floodRps } : undefined,
        });
        for (const e of chunk) e.domainId = e.domainId === 0 ? 0 : (plan.domainIds[e.domainId - 1] as number);
        const cpu = cpuMs();
        for (const e of chunk) {
          offset++;
          feed.add(e, { inode: '1', offset });
        }
        feedCpuMs += cpuMs() - cpu;
        feedRequests += chunk.length;
        for (const e of chunk) {
          count(mine, e);
          seconds[Math.floor((e.time - minuteStart) / 1000)]! += 1;
        }
      }
      // The log's time past the minute and its grace, as the agent's reader sees it: the minute closes and is cut.
      const cpu = cpuMs();
      feed.advance(minuteStart + MINUTE + GRACE_MS);
      if (!feed.ready) throw new Error(`profile ${p} minute ${m}: the minute did not close`);
      const cut = await feed.cut();
      feedCpuMs += cpuMs() - cpu;
      if (cut.droppedNow > 0 || cut.boundError) throw new Error(`profile ${p} minute ${m}: the spool dropped batches`);
      spools[p]!.push(spool);
      perSecond[p]!.push(seconds);
      requests += seconds.reduce((a, b) => a + b, 0) * times;
    }
    for (const [domainId, counters] of mine) {
      const into = expected.get(domainId) ?? ROLLUP_COUNTERS.map(() => 0);
      for (const [i, v] of counters.entries()) into[i]! += v * times;
      expected.set(domainId, into);
    }
    log(`profile ${p + 1}/${plan.profiles} prepared (${times} nodes ship it)`);
  }
  return { spools, expected, perSecond, requests, feedCpuMs, feedRequests };
}

const flags: EventFlags & Omit<EdgeEvent, keyof EventFlags> = {} as never;

/** Adds a request's counters to its domain's. */
function count(into: Map<number, number[]>, e: EdgeEvent): void {
  let counters = into.get(e.domainId);
  if (!counters) {
    counters = ROLLUP_COUNTERS.map(() => 0);
    into.set(e.domainId, counters);
  }
  addCounters(counters, Object.assign(eventFlagsInto(flags, e.cacheStatus, e.fwKind, e.fwAction), e));
}

/**
 * Wall seconds one profile's minute takes to prepare on this machine now: five seconds of one
 * node's traffic generated, counted by a feed of its own (not kept) and by `count`, times twelve.
 */
export async function calibrate(
  plan: Pick<TrafficPlan, 'rps' | 'floodRps' | 'domainIds' | 'floodDomains'>,
  dir: string,
) {
  const t0 = performance.now();
  const feed = new AggregateFeed({ dir: path.join(dir, 'calibration') });
  await feed.open();
  await feed.start({ inode: '1', offset: 0 });
  const chunk = generateTraffic({
    seed: 7,
    start: Date.UTC(2026, 0, 1),
    seconds: CHUNK_SECONDS,
    rps: plan.rps,
    domains: plan.domainIds.length,
    addresses: 200_000,
    jitterMs: 0,
    flood: plan.floodRps > 0 ? { domains: plan.floodDomains, addresses: 500, rps: plan.floodRps } : undefined,
  });
  const mine = new Map<number, number[]>();
  for (const [i, e] of chunk.entries()) {
    feed.add(e, { inode: '1', offset: i + 1 });
    count(mine, e);
  }
  return ((performance.now() - t0) / 1000) * (60 / CHUNK_SECONDS);
}
