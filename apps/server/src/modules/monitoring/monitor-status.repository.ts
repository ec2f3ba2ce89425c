import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import { monitorEvents, monitorGroups, monitorTargets, nodes, zones } from '../../platform/db/schema.js';
import { nodeSearchCondition } from '../nodes/nodes.repository.js';

type TargetState = 'up' | 'down' | 'unknown';
export type NodeMonitorState = TargetState | 'unmonitored';

/** What the monitors recorded: targets' states, their history and each node's state across groups. */
export class MonitorStatusRepository {
  constructor(private readonly db: Db) {}

  /** Targets of one group (already checked to be the operator's), with node and zone. */
  async targets(groupId: number, state: TargetState | undefined, page: number, pageSize: number) {
    const where = and(eq(monitorTargets.groupId, groupId), state ? eq(monitorTargets.state, state) : undefined);
    return readPage(
      this.db
        .select({
          nodeId: nodes.id,
          name: nodes.name,
          ips: nodes.ips,
          zoneName: sql<string>`coalesce(${zones.name}, '')`,
          state: monitorTargets.state,
          since: monitorTargets.since,
          checkedAt: monitorTargets.checkedAt,
          reason: monitorTargets.reason,
        })
        .from(monitorTargets)
        .innerJoin(nodes, eq(nodes.id, monitorTargets.nodeId))
        .leftJoin(zones, eq(zones.id, nodes.zoneId))
        .where(where)
        .orderBy(asc(nodes.name), asc(nodes.id)),
      this.db.select({ n: count() }).from(monitorTargets).where(where),
      { page, pageSize },
    );
  }

  /** The latest `perTarget` transitions of each of `nodeIds` in the group, newest first. */
  async history(groupId: number, nodeIds: number[], perTarget: number) {
    if (nodeIds.length === 0) return [];
    const ranked = this.db
      .select({
        nodeId: monitorEvents.nodeId,
        state: monitorEvents.state,
        reason: monitorEvents.reason,
        at: monitorEvents.at,
        rank: sql<number>`row_number() over (partition by ${monitorEvents.nodeId} order by ${monitorEvents.at} desc, ${monitorEvents.id} desc)`.as(
          'rank',
        ),
      })
      .from(monitorEvents)
      .where(and(eq(monitorEvents.groupId, groupId), inArray(monitorEvents.nodeId, nodeIds)))
      .as('ranked');
    return this.db
      .select({ nodeId: ranked.nodeId, state: ranked.state, reason: ranked.reason, at: ranked.at })
      .from(ranked)
      .where(sql`${ranked.rank} <= ${perTarget}`)
      .orderBy(desc(ranked.at));
  }

  /**
   * Each node's state across the operator's enabled groups: down when any says down (since the
   * first of them saw it), else up when any says up (since the last of them did), else unknown.
   * A node whose monitor switch is off (PATCH client/node/monitor) is left out: it is unmonitored.
   */
  private aggregate(ownerId: number) {
    const t = monitorTargets;
    return this.db
      .select({
        nodeId: t.nodeId,
        state:
          sql<TargetState>`case when bool_or(${t.state} = 'down') then 'down' when bool_or(${t.state} = 'up') then 'up' else 'unknown' end`.as(
            'agg_state',
          ),
        since:
          sql<Date | null>`case when bool_or(${t.state} = 'down') then min(${t.since}) filter (where ${t.state} = 'down') else max(${t.since}) filter (where ${t.state} = 'up') end`
            .mapWith(t.since)
            .as('agg_since'),
      })
      .from(t)
      .innerJoin(
        monitorGroups,
        and(eq(monitorGroups.id, t.groupId), eq(monitorGroups.ownerId, ownerId), eq(monitorGroups.enabled, true)),
      )
      .where(sql`${t.nodeId} IN (SELECT n.id FROM nodes n WHERE n.monitor)`)
      .groupBy(t.nodeId)
      .as('agg');
  }

  /** Initialised nodes of the operator with their state, filtered by state and name or address. */
  async nodeStates(
    ownerId: number,
    f: { state?: NodeMonitorState | undefined; value?: string | undefined },
    page: number,
    pageSize: number,
  ) {
    const agg = this.aggregate(ownerId);
    const state = sql<NodeMonitorState>`coalesce(${agg.state}, 'unmonitored')`;
    const search = f.value?.trim();
    const where: SQL | undefined = and(
      eq(nodes.ownerId, ownerId),
      eq(nodes.status, 'initialized'),
      f.state ? sql`${state} = ${f.state}` : undefined,
      search ? nodeSearchCondition(search) : undefined,
    );
    return readPage(
      this.db
        .select({
          id: nodes.id,
          name: nodes.name,
          ips: nodes.ips,
          zoneName: sql<string>`coalesce(${zones.name}, '')`,
          state,
          since: agg.since,
        })
        .from(nodes)
        .leftJoin(agg, eq(agg.nodeId, nodes.id))
        .leftJoin(zones, eq(zones.id, nodes.zoneId))
        .where(where)
        .orderBy(desc(nodes.createdAt), desc(nodes.id)),
      this.db.select({ n: count() }).from(nodes).leftJoin(agg, eq(agg.nodeId, nodes.id)).where(where),
      { page, pageSize },
    );
  }

  /** The state of each of `nodeIds` across the operator's groups (nodes no group probes are absent). */
  statesOf(ownerId: number, nodeIds: number[]) {
    if (nodeIds.length === 0) return Promise.resolve([]);
    const agg = this.aggregate(ownerId);
    return this.db
      .select({ nodeId: agg.nodeId, state: agg.state, since: agg.since })
      .from(agg)
      .where(inArray(agg.nodeId, nodeIds));
  }

  /** Each of `nodeIds`' place in the operator's enabled groups. */
  groupStatesOf(ownerId: number, nodeIds: number[]) {
    if (nodeIds.length === 0) return Promise.resolve([]);
    return this.db
      .select({
        nodeId: monitorTargets.nodeId,
        id: monitorGroups.id,
        name: monitorGroups.name,
        state: monitorTargets.state,
        since: monitorTargets.since,
        checkedAt: monitorTargets.checkedAt,
        reason: monitorTargets.reason,
      })
      .from(monitorTargets)
      .innerJoin(monitorGroups, eq(monitorGroups.id, monitorTargets.groupId))
      .where(
        and(
          eq(monitorGroups.ownerId, ownerId),
          eq(monitorGroups.enabled, true),
          inArray(monitorTargets.nodeId, nodeIds),
        ),
      )
      .orderBy(asc(monitorGroups.name));
  }
}
