/**
 * bench:ingest's simulated nodes' payloads, prepared before the timed window: generated requests
 * (the contract's generateTraffic, the domains mapped to the bench's real domain ids) counted by
 * the agent's own aggregate feed (apps/edge/src/agent/events/aggregate-feed.ts: MinuteAggregator, cut
 * into batches, gzip, spooled as a group), each group the feed cuts (partials, closes) moved to a
 * spool of its own with the time it was cut, to be shipped then. Beside it,
 * what the generator sent per domain (the contract's addCounters over each request, the one
 * definition of what a statistic counts), and per second (for the lag).
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { addCounters, type EdgeEvent, type EventFlags, eventFlagsInto, ROLLUP_COUNTERS } from '@rampart/contract';
import { generateTraffic } from '@rampart/contract/testing';
import { AggregateFeed } from '../../apps/edge/src/agent/events/aggregate-feed.js';
import { EventSpool, type SpoolReplay } from '../../apps/edge/src/agent/events/event-spool.js';

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
  /** The agents' partial interval (0: a minute ships whole at its close). */
  partialMs: number;
}

/** A group the agent's feed cut (partials of the open minutes, or closed minutes): shipped at `at`. */
export interface PreparedGroup {
  /** Its own spool directory (the group alone). */
  dir: string;
  /** When the agent cut it: ms after the window's start (the log's time). */
  at: number;
}

export interface PreparedTraffic {
  /** Each profile's groups, in the order they were cut, [profile][group]. */
  groups: PreparedGroup[][];
  /** What every node together sent, per real domain id (0: requests for no domain): ROLLUP_COUNTERS order. */
  expected: Map<number, number[]>;
  /** Requests of each profile by second of the window, [profile][second]. */
  perSecond: number[][];
  /** The group holding each second's requests, [profile][second]. */
  groupOfSecond: number[][];
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

/** Moves the group the feed just cut out of its spool into a spool of its own (shipped on its own schedule). */
async function moveGroup(from: EventSpool, dir: string): Promise<void> {
  const batches: { dropped: number; count: number; bytes: Buffer }[] = [];
  for (let b = from.takeOldest(); b !== null; b = from.takeOldest()) {
    batches.push({ dropped: b.carried, count: b.count, bytes: await readFile(b.file) });
    await from.acknowledge(b);
  }
  await mkdir(dir, { recursive: true });
  const to = new EventSpool(dir, undefined, 'state');
  await to.open();
  const replay = from.replay as SpoolReplay;
  await to.appendGroup(batches, replay.fedThrough, replay);
}

/**
 * One agent's feed per profile over the whole window, as a running agent counts it: every second's
 * requests added, the log's time moved to the second's end, and whatever the feed has ready (a
 * partial every PARTIAL_MS, a minute closing at its end and the grace) cut as the agent's collector
 * would, noted with its time and the seconds it holds.
 */
export async function prepareTraffic(
  plan: TrafficPlan,
  dir: string,
  log: (msg: string) => void,
): Promise<PreparedTraffic> {
  const expected = new Map<number, number[]>();
  const groups: PreparedGroup[][] = [];
  const perSecond: number[][] = [];
  const groupOfSecond: number[][] = [];
  let requests = 0;
  let feedCpuMs = 0;
  let feedRequests = 0;
  for (let p = 0; p < plan.profiles; p++) {
    const times = plan.nodesOf(p);
    const mine = new Map<number, number[]>();
    await mkdir(path.join(dir, `profile-${p}-feed`), { recursive: true });
    const feed = new AggregateFeed({
      dir: path.join(dir, `profile-${p}-feed`),
      aggregator: { graceMs: GRACE_MS, partialMs: plan.partialMs },
    });
    await feed.open();
    // The feed counts lines of a log: a made-up one whose n-th line ends at offset n.
    let offset = 0;
    await feed.start({ inode: '1', offset });
    const mineGroups: PreparedGroup[] = [];
    const seconds = new Array<number>(plan.minutes * 60).fill(0);
    const holder = new Array<number>(plan.minutes * 60).fill(-1);
    /** Seconds counted and not in a group yet. */
    let uncut: number[] = [];
    const cutIfReady = async (at: number) => {
      const cpu = cpuMs();
      if (!feed.ready) return;
      const cut = await feed.cut();
      feedCpuMs += cpuMs() - cpu;
      if (cut.droppedNow > 0 || cut.boundError) throw new Error(`profile ${p}: the spool dropped batches`);
      const replay = feed.spool.replay as SpoolReplay;
      // Everything read is in the group (a partial: its counters), or only the minutes it closed.
      const all =
        replay.from.offset === replay.fedThrough.offset || replay.partialThrough?.offset === replay.fedThrough.offset;
      const g = mineGroups.length;
      const into = uncut.filter((s) => all || plan.start + (s - (s % 60)) * 1000 < replay.closedThrough);
      for (const s of into) holder[s] = g;
      uncut = uncut.filter((s) => holder[s] === -1);
      const groupDir = path.join(dir, `profile-${p}-group-${g}`);
      await moveGroup(feed.spool, groupDir);
      mineGroups.push({ dir: groupDir, at: at - plan.start });
    };
    for (let m = 0; m < plan.minutes; m++) {
      const minuteStart = plan.start + m * MINUTE;
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
        const bySecond: EdgeEvent[][] = Array.from({ length: CHUNK_SECONDS }, () => []);
        for (const e of chunk) bySecond[Math.floor((e.time - minuteStart) / 1000) - s]?.push(e);
        for (const [i, events] of bySecond.entries()) {
          const second = m * 60 + s + i;
          const cpu = cpuMs();
          for (const e of events) {
            offset++;
            feed.add(e, { inode: '1', offset });
          }
          // The log read to its end: its time is the second's end.
          feed.advance(minuteStart + (s + i + 1) * 1000);
          feedCpuMs += cpuMs() - cpu;
          feedRequests += events.length;
          for (const e of events) count(mine, e);
          seconds[second] = events.length;
          uncut.push(second);
          await cutIfReady(minuteStart + (s + i + 1) * 1000);
        }
      }
    }
    // The log's time past the last minute and its grace: it closes and is cut.
    const end = plan.start + plan.minutes * MINUTE + GRACE_MS;
    feed.advance(end);
    await cutIfReady(end);
    if (uncut.length > 0) throw new Error(`profile ${p}: seconds ${uncut.join(', ')} were never cut`);
    groups.push(mineGroups);
    perSecond.push(seconds);
    groupOfSecond.push(holder);
    requests += seconds.reduce((a, b) => a + b, 0) * times;
    for (const [domainId, counters] of mine) {
      const into = expected.get(domainId) ?? ROLLUP_COUNTERS.map(() => 0);
      for (const [i, v] of counters.entries()) into[i]! += v * times;
      expected.set(domainId, into);
    }
    log(`profile ${p + 1}/${plan.profiles} prepared: ${mineGroups.length} groups (${times} nodes ship it)`);
  }
  return { groups, expected, perSecond, groupOfSecond, requests, feedCpuMs, feedRequests };
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
