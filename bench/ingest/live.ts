/**
 * bench:ingest's real node: the agent (its sources, as the edge tests run it) joined to the bench's
 * control plane, its own nginx serving the live site, with `eventAggregates` and refusal tallies on
 * (its statistics as minute aggregates, its events for the logs only); and live traffic through it
 * at a steady rate, counted by status as the client saw it.
 */
import { Agent as HttpAgent, request } from 'node:http';
import { startAgent, type TestAgent } from '../../apps/edge/test/helpers/agent.js';

export async function startLiveNode(controlPlane: string, joinToken: string): Promise<TestAgent> {
  return startAgent({
    controlPlane,
    joinToken,
    hostname: 'bench-live',
    eventAggregates: true,
    refusalTallies: true,
  });
}

export interface LiveTraffic {
  /** Answers by status. */
  statuses: Map<number, number>;
  sent: number;
  failed: number;
}

/** GETs of `hosts` through the node's port at `rps` from `start` to `end` (unix ms), a few at a time. */
export async function liveTraffic(
  port: number,
  hosts: readonly string[],
  rps: number,
  start: number,
  end: number,
): Promise<LiveTraffic> {
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 4 });
  const result: LiveTraffic = { statuses: new Map(), sent: 0, failed: 0 };
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port, path: `/live/${i % 500}`, headers: { host: hosts[i % hosts.length] }, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            result.statuses.set(res.statusCode ?? 0, (result.statuses.get(res.statusCode ?? 0) ?? 0) + 1);
            resolve();
          });
        },
      );
      req.on('error', () => {
        result.failed++;
        resolve();
      });
      req.end();
    });
  await new Promise((r) => setTimeout(r, Math.max(0, start - Date.now())));
  const pending = new Set<Promise<void>>();
  // Request i is due at start + i / rps: sent then (or as soon as one of four in flight ends).
  for (let i = 0; start + (i * 1000) / rps < end; i++) {
    const due = start + (i * 1000) / rps;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    if (pending.size >= 4) await Promise.race(pending);
    result.sent++;
    const p = one(i).finally(() => pending.delete(p));
    pending.add(p);
  }
  await Promise.all(pending);
  agent.destroy();
  return result;
}
