/**
 * bench:edge's propagation figures on the agent's edge: API writes timed until the edge shows them,
 * the control plane's CPU per change with one node and with light pollers, and a bulk change.
 */
import { waitUntil } from '../../apps/edge/test/helpers/real-control-plane.js';
import type { AgentEdge, BenchDomains } from './agent-edge.js';
import { get, log, treeTicks } from './load.js';
import { startPollers } from './pollers.js';

const CHANGES = 50;

export interface Propagation {
  /** Each write's time until the edge showed it, ascending (ms). */
  times: number[];
  cpuOneNode: number;
  /** null: no pollers. */
  cpuNodes: number | null;
  /** The database's CPU per change (BENCH_DATABASE=postgres): with one node, then with the pollers. */
  dbCpu: number[];
}

/**
 * 50 writes (force SSL on/off on domain 0), then `cpuChanges` writes with the one node and as many
 * with `pollers` more nodes (0: none), their control-plane CPU per change.
 */
export async function measurePropagation(
  { cp, setup, agentLog, edgeHttp, postmaster }: AgentEdge,
  name: (i: number) => string,
  cpuChanges: number,
  pollers: number,
  stops: (() => Promise<void>)[],
): Promise<Propagation> {
  log('measuring propagation');
  const [first] = await setup.customer.call<{ id: number }[]>(
    'GET',
    `user/site/${setup.siteId}/domains?keywords=${encodeURIComponent(name(0))}&pageSize=1`,
  );
  if (!first) throw new Error('domain 0 not found');
  const times: number[] = [];
  for (let i = 0; i < CHANGES; i++) {
    const forceSSL = i % 2 === 0;
    const expect = forceSSL ? 301 : 200;
    const t0 = performance.now();
    await setup.customer.call('PATCH', `user/site/${setup.siteId}/domain/setting/forceSSL`, {
      domainIDs: [first.id],
      forceSSL,
    });
    await waitUntil(async () => (await get(edgeHttp, name(0))) === expect, 10_000, 5).catch((err: unknown) => {
      log(`change ${i} did not arrive; the agent's last log lines:`);
      for (const entry of agentLog.slice(-8)) log(JSON.stringify(entry));
      throw err;
    });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  if (process.env.BENCH_PROFILE) {
    const applied = agentLog.filter((e) => e.event === 'snapshot.applied').slice(-CHANGES);
    log(`agent apply ms: ${applied.map((e) => e.ms).join(' ')}`);
    log(`propagation ms: ${times.map((t) => Math.round(t)).join(' ')}`);
  }

  // Control-plane CPU per change, with the one node and then with `pollers` more.
  let flip = true;
  // `watch` is called before each write and answers how to wait for the write's arrival.
  // The database's share (PostgreSQL's processes, BENCH_DATABASE=postgres): per change as the control plane's.
  const dbCpu: number[] = [];
  const cpuPerChange = async (watch: () => () => Promise<void>): Promise<number> => {
    const before = await treeTicks(cp.pid);
    const dbBefore = postmaster === null ? 0 : await treeTicks(postmaster);
    for (let i = 0; i < cpuChanges; i++) {
      flip = !flip;
      const arrived = watch();
      const t0 = performance.now();
      await setup.customer.call('PATCH', `user/site/${setup.siteId}/domain/setting/forceSSL`, {
        domainIDs: [first.id],
        forceSSL: flip,
      });
      const expect = flip ? 301 : 200;
      const t1 = performance.now();
      await waitUntil(async () => (await get(edgeHttp, name(0))) === expect, 30_000, 5);
      const t2 = performance.now();
      await arrived();
      // BENCH_PROFILE=1: each write's API call, then until the edge showed it, then until every poller had it.
      if (process.env.BENCH_PROFILE)
        log(
          `write ${i}: api ${Math.round(t1 - t0)} ms, edge ${Math.round(t2 - t1)} ms, pollers ${Math.round(performance.now() - t2)} ms`,
        );
    }
    if (postmaster !== null) dbCpu.push((((await treeTicks(postmaster)) - dbBefore) * 10) / cpuChanges);
    return ((await treeTicks(cp.pid)) - before) * 10;
  };
  // The propagation phase ended with force SSL off (its last write, i = 49, turned it off).
  flip = false;
  log(`control-plane CPU per change with one node (${cpuChanges} writes)`);
  const cpuOneNode = (await cpuPerChange(() => async () => {})) / cpuChanges;
  // BENCH_POLLERS=0: only the one node (cp_cpu_ms_per_change_nodes is then null).
  let cpuNodes: number | null = null;
  if (pollers > 0) {
    const { received, pollers: light } = await startPollers(cp, setup, pollers, stops);
    log(`control-plane CPU per change with ${pollers + 1} nodes (${cpuChanges} writes)`);
    cpuNodes =
      (await cpuPerChange(() => {
        const seen = [...received];
        return async () => {
          await waitUntil(async () => received.every((n, i) => n > (seen[i] ?? 0)), 300_000, 20).catch(
            (err: unknown) => {
              const behind = received.filter((n, i) => n <= (seen[i] ?? 0)).length;
              log(`${behind} of ${pollers} light pollers did not receive the change`);
              throw err;
            },
          );
        };
      })) / cpuChanges;
    light.abort();
  }
  return { times, cpuOneNode, cpuNodes, dbCpu };
}

/**
 * A change of `size` domains (force SSL on, one call per site and 500 domains, sent at once): from
 * the calls' start until the edge redirects a sample of them (`ms`), then every one (`checkedMs`).
 */
export async function bulkChange(
  { setup, edgeHttp }: AgentEdge,
  { siteIds, domainIds }: BenchDomains,
  name: (i: number) => string,
  domains: number,
  sites: number,
  size: number,
): Promise<{ domains: number; ms: number; checkedMs: number }> {
  // The domains of as few sites as hold `size` (site 0's domain 0 is the propagation's: left out).
  const bulk: number[] = [];
  for (let k = sites > 1 ? 1 : 0; k < sites && bulk.length < size; k++) {
    for (let i = k; i < domains && bulk.length < size; i += sites) if (i > 0) bulk.push(i);
  }
  log(`a bulk change of ${bulk.length} domains`);
  const calls = new Map<number, number[]>();
  for (const i of bulk) {
    const siteId = siteIds[i % sites] as number;
    calls.set(siteId, [...(calls.get(siteId) ?? []), domainIds[i] as number]);
  }
  const bulkStarted = performance.now();
  await Promise.all(
    [...calls].flatMap(([siteId, ids]) =>
      Array.from({ length: Math.ceil(ids.length / 500) }, (_, c) =>
        setup.customer.call('PATCH', `user/site/${siteId}/domain/setting/forceSSL`, {
          domainIDs: ids.slice(c * 500, c * 500 + 500),
          forceSSL: true,
        }),
      ),
    ),
  );
  const sample = [...bulk.filter((_, j) => j % Math.max(1, Math.floor(bulk.length / 20)) === 0), bulk.at(-1) as number];
  // Timed by a sample (two domains of each site and the last; each site's domains change in one
  // build, applied whole): a pass over all of them takes a second or more itself.
  await waitUntil(
    async () => (await Promise.all(sample.map((i) => get(edgeHttp, name(i))))).every((c) => c === 301),
    60_000,
    5,
  );
  const bulkMs = performance.now() - bulkStarted;
  // Then every one of them is checked (they must all redirect by now, or soon after).
  let notYet = bulk.length;
  await waitUntil(
    async () => {
      notYet = 0;
      for (const i of bulk) if ((await get(edgeHttp, name(i))) !== 301) notYet++;
      return notYet === 0;
    },
    60_000,
    50,
  );
  const bulkAllMs = performance.now() - bulkStarted;
  return { domains: bulk.length, ms: bulkMs, checkedMs: bulkAllMs };
}
