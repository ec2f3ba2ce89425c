import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import {
  monitorEvents,
  monitorGroupMonitors,
  monitorGroups,
  monitorNodes,
  monitorProbeStates,
  monitorTargets,
  nodes,
  zonePorts,
} from '../../platform/db/schema.js';

/** Probe assignments of a monitor node and what its results change. */
export class ProbesRepository {
  constructor(private readonly db: Db) {}

  /** The enabled monitor node that node `nodeId` of `ownerId` is, if any. */
  async activeMonitor(ownerId: number, nodeId: number) {
    const rows = await this.db
      .select({ id: monitorNodes.id })
      .from(monitorNodes)
      .where(and(eq(monitorNodes.ownerId, ownerId), eq(monitorNodes.nodeId, nodeId), eq(monitorNodes.enabled, true)));
    return rows[0];
  }

  /**
   * Every (group, target) the monitor probes: the enabled groups it belongs to and their targets,
   * which must be initialised nodes of the same operator with their monitor switch on (the
   * addresses come from the nodes table, never from what a user typed).
   */
  assignments(ownerId: number, monitorId: number) {
    return this.db
      .select({
        groupId: monitorGroups.id,
        intervalSeconds: monitorGroups.intervalSeconds,
        timeoutSeconds: monitorGroups.timeoutSeconds,
        failureThreshold: monitorGroups.failureThreshold,
        nodeId: nodes.id,
        ips: nodes.ips,
        zoneId: nodes.zoneId,
      })
      .from(monitorGroupMonitors)
      .innerJoin(
        monitorGroups,
        and(
          eq(monitorGroups.id, monitorGroupMonitors.groupId),
          eq(monitorGroups.ownerId, ownerId),
          eq(monitorGroups.enabled, true),
        ),
      )
      .innerJoin(monitorTargets, eq(monitorTargets.groupId, monitorGroups.id))
      .innerJoin(
        nodes,
        and(
          eq(nodes.id, monitorTargets.nodeId),
          eq(nodes.ownerId, ownerId),
          eq(nodes.status, 'initialized'),
          eq(nodes.monitor, true),
        ),
      )
      .where(eq(monitorGroupMonitors.monitorId, monitorId))
      .orderBy(asc(monitorGroups.id), asc(nodes.id));
  }

  portsOf(zoneIds: number[]) {
    if (zoneIds.length === 0) return Promise.resolve([]);
    return this.db
      .select({ zoneId: zonePorts.zoneId, port: zonePorts.port })
      .from(zonePorts)
      .where(inArray(zonePorts.zoneId, zoneIds))
      .orderBy(asc(zonePorts.port));
  }

  /** The target's stored state, locked until the transaction ends (monitors report concurrently). */
  async lockTarget(groupId: number, nodeId: number) {
    const rows = await this.db
      .select({ state: monitorTargets.state })
      .from(monitorTargets)
      .where(and(eq(monitorTargets.groupId, groupId), eq(monitorTargets.nodeId, nodeId)))
      .for('update');
    return rows[0];
  }

  /** Adds one result to the monitor's running count: a success resets it, a failure adds one. */
  async recordProbe(r: { groupId: number; nodeId: number; monitorId: number; ok: boolean; reason: string; at: Date }) {
    const failures = r.ok ? 0 : 1;
    const reason = r.ok ? '' : r.reason;
    await this.db
      .insert(monitorProbeStates)
      .values({ groupId: r.groupId, nodeId: r.nodeId, monitorId: r.monitorId, failures, reason, checkedAt: r.at })
      .onConflictDoUpdate({
        target: [monitorProbeStates.groupId, monitorProbeStates.nodeId, monitorProbeStates.monitorId],
        set: {
          failures: r.ok ? 0 : sql`${monitorProbeStates.failures} + 1`,
          reason,
          checkedAt: r.at,
        },
      });
  }

  /** The running counts of the group's enabled monitors for a target that reported since `after`. */
  activeCounts(groupId: number, nodeId: number, after: Date) {
    return this.db
      .select({ failures: monitorProbeStates.failures, reason: monitorProbeStates.reason })
      .from(monitorProbeStates)
      .innerJoin(
        monitorGroupMonitors,
        and(
          eq(monitorGroupMonitors.groupId, monitorProbeStates.groupId),
          eq(monitorGroupMonitors.monitorId, monitorProbeStates.monitorId),
        ),
      )
      .innerJoin(monitorNodes, and(eq(monitorNodes.id, monitorProbeStates.monitorId), eq(monitorNodes.enabled, true)))
      .where(
        and(
          eq(monitorProbeStates.groupId, groupId),
          eq(monitorProbeStates.nodeId, nodeId),
          gte(monitorProbeStates.checkedAt, after),
        ),
      );
  }

  async setTarget(
    groupId: number,
    nodeId: number,
    values: { checkedAt: Date; reason: string; state?: 'up' | 'down'; since?: Date },
  ) {
    await this.db
      .update(monitorTargets)
      .set(values)
      .where(and(eq(monitorTargets.groupId, groupId), eq(monitorTargets.nodeId, nodeId)));
  }

  async insertEvent(values: typeof monitorEvents.$inferInsert) {
    await this.db.insert(monitorEvents).values(values);
  }
}
