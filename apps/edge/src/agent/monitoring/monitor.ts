import { Socket } from 'node:net';
import type { ProbeAssignment } from '@rampart/contract';
import { pause } from '../backoff.js';
import { errorText, type Logger } from '../log.js';
import { NodeApiError, type NodeClient } from '../node-api/node-client.js';

/**
 * The monitor-node side of monitoring: every node asks the control plane what it should probe
 * (`GET /api/edge/v1/probes`, empty unless the operator made it a monitor node), and for each
 * assigned monitor group runs a round every interval: a TCP connect to each target's address on
 * each of its ports within the group's timeout, with bounded concurrency, then one batched report
 * (`POST /api/edge/v1/probes/results`). The control plane decides up and down from the reports.
 * Addresses come only from the control plane, which builds them from its nodes table.
 */

/** At most this many connects in flight, whatever the number of targets. */
const MAX_CONCURRENT_CONNECTS = 64;
const REASON_MAX = 256;

/** Connects to ip:port; null when it accepted within the timeout, else why not (`ECONNREFUSED`, `timeout`). */
export function probeTcp(ip: string, port: number, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (result: string | null) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done('timeout'));
    socket.once('connect', () => done(null));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
    socket.connect({ host: ip, port });
  });
}

/** Runs `tasks` with at most `limit` at a time. */
async function pooled<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      const task = tasks[index];
      if (task) results[index] = await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** One round of a group: each target is ok when every port accepted. */
export async function probeGroup(assignment: ProbeAssignment) {
  const timeoutMs = assignment.timeoutSeconds * 1000;
  const checks = assignment.targets.flatMap((target) =>
    target.ports.map((port) => async () => ({ target, port, error: await probeTcp(target.ip, port, timeoutMs) })),
  );
  const outcomes = await pooled(checks, MAX_CONCURRENT_CONNECTS);
  return assignment.targets.map((target) => {
    const failed = outcomes.filter((o) => o.target === target && o.error !== null);
    return {
      groupId: assignment.groupId,
      nodeId: target.nodeId,
      ok: failed.length === 0,
      reason: failed
        .map((o) => `${o.port} ${o.error}`)
        .join(', ')
        .slice(0, REASON_MAX),
    };
  });
}

interface Running {
  assignment: ProbeAssignment;
  timer: NodeJS.Timeout | null;
  round: Promise<void> | null;
}

export class ProbeLoop {
  private readonly controller = new AbortController();
  private readonly groups = new Map<number, Running>();
  private loop: Promise<void> | null = null;

  constructor(
    private readonly client: NodeClient,
    private readonly log: Logger,
    /** How often the assignments are fetched again. */
    private readonly refreshMs = 30_000,
  ) {}

  start(): void {
    this.loop ??= this.refreshLoop();
  }

  async stop(): Promise<void> {
    this.controller.abort();
    for (const running of this.groups.values()) if (running.timer) clearTimeout(running.timer);
    await this.loop;
    await Promise.all([...this.groups.values()].map((r) => r.round));
    this.groups.clear();
  }

  private get stopping(): boolean {
    return this.controller.signal.aborted;
  }

  private async refreshLoop(): Promise<void> {
    while (!this.stopping) {
      try {
        this.apply(await this.client.probes(this.controller.signal));
      } catch (err) {
        if (this.stopping) return;
        this.log('warn', 'probes.fetch_failed', { error: errorText(err) });
      }
      await pause(this.refreshMs, this.controller.signal);
    }
  }

  /** Starts the groups that are new or changed, stops those no longer assigned. */
  private apply(assignments: ProbeAssignment[]): void {
    const ids = new Set(assignments.map((a) => a.groupId));
    for (const [groupId, running] of this.groups) {
      if (ids.has(groupId)) continue;
      if (running.timer) clearTimeout(running.timer);
      this.groups.delete(groupId);
    }
    for (const assignment of assignments) {
      const running = this.groups.get(assignment.groupId);
      if (running && running.assignment.intervalSeconds === assignment.intervalSeconds) {
        running.assignment = assignment; // targets and timeout apply from the next round
        continue;
      }
      if (running?.timer) clearTimeout(running.timer);
      const fresh: Running = { assignment, timer: null, round: null };
      this.groups.set(assignment.groupId, fresh);
      this.log('info', 'probes.assigned', { groupId: assignment.groupId, targets: assignment.targets.length });
      this.runRound(fresh);
    }
  }

  private runRound(running: Running): void {
    if (this.stopping || this.groups.get(running.assignment.groupId) !== running) return;
    const started = Date.now();
    running.round = (async () => {
      const { assignment } = running;
      try {
        const results = await probeGroup(assignment);
        if (results.length > 0 && !this.stopping) {
          await this.client.reportProbes({ results }, this.controller.signal);
          this.log('info', 'probes.reported', {
            groupId: assignment.groupId,
            up: results.filter((r) => r.ok).length,
            down: results.filter((r) => !r.ok).length,
          });
        }
      } catch (err) {
        if (this.stopping) return;
        this.log('warn', 'probes.report_failed', { groupId: assignment.groupId, error: errorText(err) });
        // 101018: the assignment changed under us (a target or the group left); fetch it again.
        if (err instanceof NodeApiError && err.code === 101018) this.refreshSoon();
      }
    })();
    void running.round.finally(() => {
      if (this.stopping || this.groups.get(running.assignment.groupId) !== running) return;
      const wait = Math.max(0, running.assignment.intervalSeconds * 1000 - (Date.now() - started));
      running.timer = setTimeout(() => this.runRound(running), wait);
    });
  }

  private refreshSoon(): void {
    this.client
      .probes(this.controller.signal)
      .then((assignments) => this.apply(assignments))
      .catch(() => undefined);
  }
}
