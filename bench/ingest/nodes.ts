/**
 * bench:ingest's simulated nodes: each joins through the node API's real registration (NodeClient,
 * signing as the agent does) and is placed by the operator; when the agent's feed cut each group
 * (a partial of the open minutes, or minutes closing at their end and the grace; spread over a
 * second as the nodes' readers are) each ships that group from its own copy of the prepared spool with the agent's own shipper (EventShipper over
 * an EventSpool: signed POST /aggregates of the gzip bytes, oldest first, retried with backoff),
 * one batch of a node in flight at a time: a group cut while the node's previous one is still
 * being shipped waits for it, as in the agent's one spool.
 */
import { setMaxListeners } from 'node:events';
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { EventShipper } from '../../apps/edge/src/agent/events/event-shipper.js';
import { EventSpool } from '../../apps/edge/src/agent/events/event-spool.js';
import { NodeClient } from '../../apps/edge/src/agent/node-api/node-client.js';
import { AGENT_VERSION } from '../../apps/edge/src/agent/version.js';
import type { OperatorSetup } from '../../apps/edge/test/helpers/real-control-plane.js';
import type { PreparedGroup } from './traffic.js';

export interface SimulatedNode {
  nodeId: number;
  client: NodeClient;
  profile: number;
}

export async function registerNodes(
  url: string,
  setup: OperatorSetup,
  count: number,
  profiles: number,
): Promise<SimulatedNode[]> {
  const nodes: SimulatedNode[] = [];
  for (let i = 0; i < count; i++) {
    const client = new NodeClient(url, null, 120_000);
    const credentials = await client.register({
      joinToken: setup.joinToken,
      hostname: `sim-${i}`,
      ips: [`127.0.${2 + (i >> 8)}.${i & 255}`],
      version: AGENT_VERSION,
    });
    client.setCredentials(credentials);
    nodes.push({ nodeId: credentials.nodeId, client, profile: i % profiles });
  }
  await setup.operator.call('POST', 'client/nodes/initialize', {
    ids: nodes.map((n) => n.nodeId),
    zoneID: setup.zoneId,
    groupID: setup.groupId,
  });
  return nodes;
}

/** When each node's group was acknowledged whole (unix ms), [node][group]; empty when it was not by the give-up time. */
export type Acknowledged = number[][];

/**
 * Ships every node's groups on the agents' schedule: group g of node n at start + the group's cut
 * time + n's share of a second, or once n's group g-1 was acknowledged if that is later (one
 * aggregate batch of a node in flight at a time, as a real agent's). Resolves when every group is acknowledged, or at `giveUpAt`
 * (unix ms) with the groups not acknowledged whole by then left out (their shippers stopped).
 */
export async function shipOnSchedule(
  nodes: readonly SimulatedNode[],
  groups: readonly (readonly PreparedGroup[])[],
  work: string,
  start: number,
  log: (msg: string) => void,
  giveUpAt = Number.POSITIVE_INFINITY,
): Promise<Acknowledged> {
  const givenUp = new AbortController();
  setMaxListeners(0, givenUp.signal);
  const timer = Number.isFinite(giveUpAt)
    ? setTimeout(() => givenUp.abort(), Math.max(0, giveUpAt - Date.now()))
    : null;
  // Each node its own copy of its profile's groups (a shipper removes what was acknowledged).
  const copies = await Promise.all(
    nodes.map((node, n) =>
      Promise.all(
        (groups[node.profile] ?? []).map(async (group, g) => {
          const dir = path.join(work, `node-${n}-group-${g}`);
          await cp(group.dir, dir, { recursive: true });
          return { dir, at: group.at };
        }),
      ),
    ),
  );
  const acknowledged: Acknowledged = nodes.map(() => []);
  const failures: string[] = [];
  // One batch of a node in flight at a time, as the agent's one spool and shipper per route: a
  // node's groups in their cut order, each from its cut time or once the one before it was
  // acknowledged, whichever is later (a group cut meanwhile waits behind it in the agent's spool).
  const ships = nodes.map(async (node, n) => {
    for (const [g, group] of (copies[n] ?? []).entries()) {
      const at = start + group.at + Math.floor((n * 1000) / nodes.length);
      await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
      if (givenUp.signal.aborted) return;
      const spool = new EventSpool(group.dir, undefined, 'state');
      await spool.open();
      const stop = new AbortController();
      setMaxListeners(0, stop.signal);
      givenUp.signal.addEventListener('abort', () => stop.abort());
      const shipper = new EventShipper({
        spool,
        name: 'aggregates',
        ship: async (client, bytes, signal) => {
          const answer = await client.shipAggregates(bytes, signal);
          // The last of the group acknowledged: its requests are in the statistics.
          if (spool.waiting <= 1) stop.abort();
          return answer;
        },
        client: () => node.client,
        log: (level, event, fields) => {
          if (level !== 'info') failures.push(`node ${node.nodeId} ${event} ${JSON.stringify(fields)}`);
        },
        signal: stop.signal,
      });
      // A group whose last batch was refused for good (discarded: logged below) ends too.
      const emptied = setInterval(() => spool.waiting === 0 && stop.abort(), 250);
      await shipper.run().finally(() => clearInterval(emptied));
      if (spool.waiting > 0) {
        if (givenUp.signal.aborted) return;
        throw new Error(`node ${node.nodeId} group ${g}: ${spool.waiting} batches left`);
      }
      acknowledged[n]![g] = Date.now();
    }
  });
  await Promise.all(ships).finally(() => timer && clearTimeout(timer));
  if (givenUp.signal.aborted) log('gave up waiting for the acknowledgements: the groups not acknowledged are left out');
  if (failures.length > 0) {
    log(`shipping retried ${failures.length} times, first: ${failures[0]}`);
    // Each answer's count, whatever node or batch it came for (a shed 503 apart from a failed write).
    const byAnswer = new Map<string, number>();
    for (const f of failures) {
      const answer = /"error":"([^"]*)"/.exec(f)?.[1] ?? f;
      byAnswer.set(answer, (byAnswer.get(answer) ?? 0) + 1);
    }
    log(`retries by answer: ${JSON.stringify(Object.fromEntries(byAnswer))}`);
  }
  return acknowledged;
}
