import type { AnyRoute } from './route.js';

/**
 * Zone scope of an operator's sub-account (`client/{clientId}/zones`, routes/account-zones.ts).
 *
 * A sub-account with assigned zones may name only those zones, and only nodes placed in them. The
 * server's binder checks this in one place for every client route, from this table: a path
 * parameter `zoneID` is always a zone reference; {@link ZONE_SCOPE_REFS} names the other fields
 * that carry zone or node ids (`part.field`, a number or an array of numbers). A reference outside
 * the scope answers 101018, as another operator's zone does. Lists of zones and nodes filter
 * themselves in SQL (they name no id to check). A contract test keeps the table complete: a client
 * route with a field named like a zone or node reference must be listed.
 */
export type ScopeRef = `${'params' | 'query' | 'body'}.${string}`;

export interface ZoneScopeRefs {
  readonly zones?: readonly ScopeRef[];
  readonly nodes?: readonly ScopeRef[];
}

const nodeIds: ZoneScopeRefs = { nodes: ['body.ids'] };

export const ZONE_SCOPE_REFS: Readonly<Record<string, ZoneScopeRefs>> = {
  'client.zone.update': { zones: ['body.id'] },
  'client.zone.delete': { zones: ['body.id'] },
  // Uninitialised nodes belong to no zone yet: only the target zone is checked.
  'client.nodes.initialize': { zones: ['body.zoneID'] },
  'client.nodes.moveToZone': { zones: ['body.zoneID'], nodes: ['body.nodeIDs'] },
  'client.nodes.initialized': { zones: ['query.zoneIDs'] },
  'client.nodes.logRotate': nodeIds,
  'client.nodes.logRotateTime': nodeIds,
  'client.node.status': nodeIds,
  'client.nodes.memo': nodeIds,
  'client.node.monitor': nodeIds,
  'client.nodes.portType': nodeIds,
  'client.node.upgrade': nodeIds,
  'client.node.upgrade.logs': { nodes: ['params.id'] },
  'client.zone.nodes.reboot': nodeIds,
  'client.zone.nodes.reset': nodeIds,
  'client.zone.nodes.currentCache.delete': nodeIds,
  'client.zone.nodes.cache.delete': nodeIds,
  'client.zone.node.system': { nodes: ['params.id'] },
  'client.zone.node.commands': { nodes: ['params.id'] },
  'client.zone.node.update': { nodes: ['body.id'] },
  'client.zone.node.delete': { nodes: ['body.id'] },
  'client.zone.node.subs': { nodes: ['params.id'] },
  'client.zone.node.subs.create': { nodes: ['params.id'] },
  'client.zone.node.subs.delete': { nodes: ['params.id'] },
  'client.zone.node.sub.ip': { nodes: ['params.id'] },
  'client.group.line.nodes.add': { nodes: ['body.nodeIDs'] },
  'client.group.line.nodes.remove': { nodes: ['body.nodeIDs'] },
  'client.group.line.nodes.move': { nodes: ['body.nodeIDs'] },
  'client.virtualNode.record.node': { nodes: ['body.nodeIDs'] },
  'client.monitor.node.create': { nodes: ['body.nodeID'] },
  'client.monitor.group.create': { nodes: ['body.nodeIDs'] },
  'client.monitor.group.update': { nodes: ['body.nodeIDs'] },
  'client.blockIPs.list': { zones: ['query.zoneID'] },
  'client.statistics.info': { zones: ['body.zoneIDs'] },
  'client.statistics.top': { zones: ['body.zoneIDs'] },
  'client.statistics.timeSeries': { zones: ['body.zoneIDs'] },
  'client.statistics.upstreamTimes': { zones: ['body.zoneIDs'] },
  'client.statistics.list': { zones: ['body.zoneIDs'] },
  'client.statistics.export': { zones: ['body.zoneIDs'] },
  'client.logs.access': { zones: ['body.zoneIDs'] },
  'client.logs.waf': { zones: ['body.zoneIDs'] },
  'client.logExports.create': { zones: ['body.zoneIDs'] },
  'client.logPush.create': { zones: ['body.zoneIDs'] },
  'client.logPush.update': { zones: ['body.zoneIDs'] },
};

/** The zone and node references of a route: `params.zoneID` always, plus the table's. */
export function zoneScopeRefsOf(route: Pick<AnyRoute, 'id' | 'path'>): { zones: ScopeRef[]; nodes: ScopeRef[] } {
  const listed = ZONE_SCOPE_REFS[route.id];
  const zones: ScopeRef[] = route.path.includes('{zoneID}') ? ['params.zoneID'] : [];
  return { zones: [...zones, ...(listed?.zones ?? [])], nodes: [...(listed?.nodes ?? [])] };
}

/** The ids a reference names in a parsed request (none when the field is absent). */
export function scopeRefIds(ref: ScopeRef, input: { params: unknown; query: unknown; body: unknown }): number[] {
  const [part, field] = ref.split('.') as ['params' | 'query' | 'body', string];
  const holder = input[part];
  if (holder === null || typeof holder !== 'object') return [];
  const value = (holder as Record<string, unknown>)[field];
  const values = Array.isArray(value) ? value : [value];
  return values.filter((v): v is number => typeof v === 'number' && Number.isInteger(v));
}
