import type { ProbeAssignment, ProbeResultIn } from '@rampart/contract';
import type { ConfigChanges } from '../../platform/changes.js';
import type { Clock } from '../../platform/clock.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { ProbesRepository } from './probes.repository.js';

/** Ports probed when a target's zone lists none (zones always have some; this is a safety net). */
const FALLBACK_PORTS = [80, 443];
/** A monitor's count still counts while it reported within this many of the group's intervals. */
const ACTIVE_INTERVALS = 3;

type State = 'up' | 'down' | 'unknown';

/**
 * The monitors' verdict on one target from each active monitor's count of consecutive failures:
 * down when more than half of them reached the threshold (one monitor with a broken network cannot
 * take a node down on its own, unless it is the only one); up when that is not so and at least one
 * of them saw the target answer on its latest probe; otherwise unchanged (failures still below the
 * threshold keep an up target up).
 */
export function decideState(current: State, failures: readonly number[], threshold: number): State {
  const failing = failures.filter((n) => n >= threshold).length;
  if (failures.length > 0 && failing * 2 > failures.length) return 'down';
  if (failures.some((n) => n === 0)) return 'up';
  return current;
}

/** What a monitor node probes, and the state changes its results bring. */
export class ProbesService {
  constructor(
    private readonly probes: ProbesRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    /** Told of each state change, in the report's transaction (the alerts: node down and up). */
    private readonly onStateChange: (
      ownerId: number,
      nodeId: number,
      at: Date,
      reason: string,
    ) => Promise<void> = async () => {},
    /** Bumped once a round that moved a target up or down committed (the DNS publication follows it). */
    private readonly transitions?: ConfigChanges,
  ) {}

  /** The probe assignments of a node: none unless it is an enabled monitor node of its operator. */
  async assignments(ownerId: number, nodeId: number): Promise<ProbeAssignment[]> {
    const monitor = await this.probes.activeMonitor(ownerId, nodeId);
    if (!monitor) return [];
    const rows = await this.probes.assignments(ownerId, monitor.id);
    const zoneIds = [...new Set(rows.flatMap((r) => (r.zoneId === null ? [] : [r.zoneId])))];
    const ports = await this.probes.portsOf(zoneIds);
    const groups = new Map<number, ProbeAssignment>();
    for (const row of rows) {
      const ip = row.ips[0];
      if (ip === undefined) continue;
      let group = groups.get(row.groupId);
      if (!group) {
        group = {
          groupId: row.groupId,
          intervalSeconds: row.intervalSeconds,
          timeoutSeconds: row.timeoutSeconds,
          targets: [],
        };
        groups.set(row.groupId, group);
      }
      const zonePorts = ports.filter((p) => p.zoneId === row.zoneId).map((p) => p.port);
      group.targets.push({ nodeId: row.nodeId, ip, ports: zonePorts.length > 0 ? zonePorts : FALLBACK_PORTS });
    }
    return [...groups.values()];
  }

  /**
   * Records one round of results, all or none: every (group, target) must be one this monitor is
   * assigned now (101018 otherwise, whatever the reason: another operator's node, a group it left).
   */
  async report(ownerId: number, nodeId: number, results: ProbeResultIn[]): Promise<void> {
    const monitor = await this.probes.activeMonitor(ownerId, nodeId);
    if (!monitor) throw new AppError(101018);
    const assigned = new Map<string, { intervalSeconds: number; failureThreshold: number }>();
    for (const row of await this.probes.assignments(ownerId, monitor.id)) {
      assigned.set(`${row.groupId}:${row.nodeId}`, row);
    }
    if (results.some((r) => !assigned.has(`${r.groupId}:${r.nodeId}`))) throw new AppError(101018);
    const at = new Date(this.clock());
    await this.transactions.run(async () => {
      for (const result of results) {
        const group = assigned.get(`${result.groupId}:${result.nodeId}`);
        if (!group) continue;
        const target = await this.probes.lockTarget(result.groupId, result.nodeId);
        if (!target) continue;
        await this.probes.recordProbe({ ...result, monitorId: monitor.id, at });
        const after = new Date(at.getTime() - ACTIVE_INTERVALS * group.intervalSeconds * 1000);
        const counts = await this.probes.activeCounts(result.groupId, result.nodeId, after);
        const state = decideState(
          target.state,
          counts.map((c) => c.failures),
          group.failureThreshold,
        );
        const reason = state === 'down' ? (counts.find((c) => c.failures > 0)?.reason ?? '') : '';
        if (state !== target.state && state !== 'unknown') {
          await this.probes.setTarget(result.groupId, result.nodeId, { checkedAt: at, reason, state, since: at });
          await this.probes.insertEvent({ groupId: result.groupId, nodeId: result.nodeId, state, reason, at });
          await this.onStateChange(ownerId, result.nodeId, at, reason);
          const transitions = this.transitions;
          if (transitions) this.transactions.afterCommit(() => transitions.bump());
        } else {
          await this.probes.setTarget(result.groupId, result.nodeId, { checkedAt: at, reason });
        }
      }
    });
  }
}
