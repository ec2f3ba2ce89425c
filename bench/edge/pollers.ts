/**
 * bench:edge's light pollers (see the top of bench/edge.ts, `cp_cpu_ms_per_change_nodes`): `count`
 * more nodes that register, are placed by the operator and poll as the agent does. Resolves once
 * every poller holds the plane and the control plane has been quiet; `received` counts each
 * poller's plane answers, `pollers` stops them.
 */
import { setMaxListeners } from 'node:events';
import type { EdgeSnapshot, PlaneAnswer } from '@rampart/contract';
import { NodeClient } from '../../apps/edge/src/agent/node-api/node-client.js';
import { AGENT_VERSION } from '../../apps/edge/src/agent/version.js';
import { LuaPlane } from '../../apps/edge/src/data-plane/lua-plane.js';
import {
  type setUpOperator,
  type startControlPlane,
  waitUntil,
} from '../../apps/edge/test/helpers/real-control-plane.js';
import { log, treeTicks } from './load.js';

export async function startPollers(
  cp: Awaited<ReturnType<typeof startControlPlane>>,
  setup: Awaited<ReturnType<typeof setUpOperator>>,
  POLLERS: number,
  stops: (() => Promise<void>)[],
): Promise<{ received: number[]; pollers: AbortController }> {
  log(`registering ${POLLERS} light pollers`);
  const pollers = new AbortController();
  // Every poller's requests listen to it (Node warns past 10 listeners).
  setMaxListeners(0, pollers.signal);
  stops.push(async () => pollers.abort());
  const received: number[] = [];
  const pollerIds: number[] = [];
  // Where poller 0's plane is: the others start their streams from it.
  type Position = { since: string; plane: string; meta: string };
  const positionOf = (answer: PlaneAnswer): Position => ({
    since: answer.to,
    plane: answer.planeHash,
    meta: answer.metaHash,
  });
  const lead: { known: Position | null } = { known: null };
  let following = 0;
  /** Where each follower's last answer left it (its `to`). */
  const positions: (string | undefined)[] = [];
  /**
   * A poller past the first: a node whose plane is poller 0's (same group, same owner). It opens
   * its stream from where poller 0 is, so the control plane answers it as it answers a node that
   * holds the plane, and follows the answers by their positions only: each delta must start where
   * the last answer ended (a whole plane, after a refusal, is taken as a new start). The control
   * plane's work for it is a node's; only the bench process skips building a plane per poller.
   */
  const followPlane = async (client: NodeClient, index: number) => {
    await waitUntil(async () => lead.known !== null || pollers.signal.aborted, 600_000, 100);
    let known: Position | null = null;
    following += 1;
    const take = async (answer: PlaneAnswer) => {
      if (answer.type === 'delta' && answer.from !== known?.since) {
        const at = known?.since;
        known = null;
        throw new Error(`a delta from ${answer.from} reached a poller at ${at}`);
      }
      known = positionOf(answer);
      positions[index] = known.since;
      received[index] = (received[index] ?? 0) + 1;
    };
    while (!pollers.signal.aborted) {
      // A stream opens from where this poller is, or (at first, and after a refusal) from poller 0.
      known ??= lead.known;
      await client.planeStream(known, take, pollers.signal).catch(failedFor(index));
    }
  };
  const failedFor = (index: number) => async (err: unknown) => {
    if (pollers.signal.aborted) return null;
    log(`light poller ${index}: ${err instanceof Error ? err.message : String(err)}`);
    await new Promise((r) => setTimeout(r, 1000));
    return null;
  };
  for (let i = 0; i < POLLERS; i++) {
    const client = new NodeClient(cp.url, null, 60_000);
    const credentials = await client.register({
      joinToken: setup.joinToken,
      hostname: `light-${i}`,
      ips: [`127.0.${1 + (i >> 8)}.${i & 255}`],
      version: AGENT_VERSION,
    });
    client.setCredentials(credentials);
    pollerIds.push(credentials.nodeId);
    received.push(0);
    const index = i;
    const failed = failedFor(index);
    // As a node does: the snapshot without its data plane, and the plane as entries, each
    // answer checked and applied in memory (lua-plane.ts, what the agent does before nginx).
    client.snapshotDataPlane = () => 'none';
    void (async () => {
      let version: string | null = null;
      while (!pollers.signal.aborted) {
        const snap: EdgeSnapshot | null = await client.snapshot(version, 25, pollers.signal).catch(failed);
        if (snap) version = snap.version;
      }
    })();
    // Poller 0 holds the plane and checks every answer as the agent does; the others follow
    // it (below), so 99 whole planes need not fit in this process at 100,000 domains.
    if (index > 0) {
      void followPlane(client, index);
      continue;
    }
    void (async () => {
      const held: { plane: LuaPlane | null } = { plane: null };
      // The plane as the agent takes it: one stream, a line per change (a refused line ends it,
      // and the next stream starts from a whole plane).
      const take = async (answer: PlaneAnswer) => {
        try {
          if (answer.type === 'full') held.plane = LuaPlane.full(answer);
          else if (held.plane) held.plane.applyDelta(answer);
          else throw new Error('a delta with no plane');
        } catch (err) {
          held.plane = null;
          throw err;
        }
        if (process.env.BENCH_PROFILE)
          log(`light poller 0: plane at ${held.plane?.to}, ${held.plane?.domainCount} domains`);
        lead.known = positionOf(answer);
        received[index] = (received[index] ?? 0) + 1;
      };
      while (!pollers.signal.aborted) {
        const plane = held.plane;
        const known = plane ? { since: plane.to, plane: plane.planeHash, meta: plane.metaHash } : null;
        await client.planeStream(known, take, pollers.signal).catch(failed);
      }
    })();
  }
  await setup.operator.call('POST', 'client/nodes/initialize', {
    ids: pollerIds,
    zoneID: setup.zoneId,
    groupID: setup.groupId,
  });
  // Poller 0 has its plane and the changes the pollers' joining made; the others have opened
  // their streams from it (a change they miss while opening reaches them as a longer delta).
  await waitUntil(async () => (received[0] ?? 0) >= 2 && following === POLLERS - 1, 600_000, 100);
  // Each follower opened its stream before its node was placed (its plane then empty), so it
  // takes the group's whole plane once after: the measurement starts when every one of them is
  // where poller 0 is (at 100,000 domains the 99 whole planes, ~50 MB each, took the bench
  // process about a minute to read, and ran into the measured writes).
  await waitUntil(
    async () => {
      const lead0 = lead.known?.since;
      return lead0 !== undefined && pollerIds.slice(1).every((_, i) => positions[i + 1] === lead0);
    },
    900_000,
    200,
  );
  log(`every light poller holds the plane at ${lead.known?.since}`);
  // The 99 whole planes the pollers took (~50 MB each at 100,000 domains) are garbage on the
  // control plane's heap until a major collection: left there, the measured writes paid for it
  // (scavenges of 20 ms each, 85 against 49-60 ms per change). V8 collects on its own once the
  // process has been quiet for a while (its memory reducer, ~8 s): the measurement waits for the
  // control plane to be quiet, then that long, so it measures the changes and not the joining.
  const quietUntil = Date.now() + 120_000;
  let quiet = 0;
  while (quiet < 2 && Date.now() < quietUntil) {
    const before = await treeTicks(cp.pid);
    await new Promise((r) => setTimeout(r, 1000));
    quiet = ((await treeTicks(cp.pid)) - before) * 10 < 50 ? quiet + 1 : 0;
  }
  if (quiet < 2) log('the control plane was not quiet within 120 s: the 100-node phase starts anyway');
  await new Promise((r) => setTimeout(r, 12_000));
  return { received, pollers };
}
