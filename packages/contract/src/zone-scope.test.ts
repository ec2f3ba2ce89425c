import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ALL_ROUTES } from './routes/index.js';
import { scopeRefIds, ZONE_SCOPE_REFS, zoneScopeRefsOf } from './zone-scope.js';

function fields(schema: z.ZodType | undefined): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** Client routes whose fields look like zone or node ids but are not (with the reason). */
const NOT_REFERENCES: Readonly<Record<string, string>> = {
  'client.accounts.zones.set': 'assigns zones; the service checks them against the caller itself',
  'client.nodes.uninitialized': 'uninitialised nodes belong to no zone',
  'client.monitor.node.update': 'body.id is a monitor node, not an edge node',
  'client.monitor.node.delete': 'body.id is a monitor node, not an edge node',
  'client.monitor.group.nodes': 'params.id is a monitor group',
  'client.zone.node.subs.delete': 'body.ids are sub-node ids; the node is params.id',
  'client.zone.node.sub.ip': 'body.id is a sub-node id; the node is params.id',
  'client.virtualNode.record.delete': 'body.ids are record ids',
  'client.nodes.initialize': 'body.ids are uninitialised nodes (no zone yet); body.zoneID is listed',
  'client.virtualNode.record.node': 'params.id is the virtual node; body.nodeIDs is listed',
};

describe('zone scope table', () => {
  it('names every client route that carries zone or node ids outside a {zoneID} path', () => {
    const unlisted: string[] = [];
    for (const route of ALL_ROUTES) {
      if (route.access.kind !== 'tiers' || !route.access.tiers.includes('client')) continue;
      const all = [
        ...fields(route.request.params).map((f) => `params.${f}`),
        ...fields(route.request.query).map((f) => `query.${f}`),
        ...fields(route.request.body).map((f) => `body.${f}`),
      ];
      const onNodes = /\/node(s)?(\/|$)|\/node\//.test(route.path);
      const looksLikeRef = all.filter(
        (f) => /\.(zoneID|zoneIDs|nodeID|nodeIDs)$/.test(f) || (onNodes && /^(body\.ids|body\.id|params\.id)$/.test(f)),
      );
      if (looksLikeRef.length === 0) continue;
      const refs = zoneScopeRefsOf(route);
      const covered = new Set<string>([...refs.zones, ...refs.nodes]);
      const missing = looksLikeRef.filter((f) => !covered.has(f as never));
      if (missing.length > 0 && !(route.id in NOT_REFERENCES)) unlisted.push(`${route.id}: ${missing.join(', ')}`);
    }
    expect(unlisted).toEqual([]);
  });

  it('lists only declared routes and fields', () => {
    const byId = new Map(ALL_ROUTES.map((r) => [r.id, r]));
    for (const [id, refs] of Object.entries(ZONE_SCOPE_REFS)) {
      const route = byId.get(id);
      expect(route, id).toBeDefined();
      for (const ref of [...(refs.zones ?? []), ...(refs.nodes ?? [])]) {
        const [part, field] = ref.split('.') as ['params' | 'query' | 'body', string];
        expect(fields(route?.request[part]), `${id} ${ref}`).toContain(field);
      }
    }
  });

  it('reads single ids and arrays from a parsed request, ignoring absent fields', () => {
    const input = { params: { zoneID: 4 }, query: {}, body: { ids: [1, 2], id: 'x' } };
    expect(scopeRefIds('params.zoneID', input)).toEqual([4]);
    expect(scopeRefIds('body.ids', input)).toEqual([1, 2]);
    expect(scopeRefIds('body.id', input)).toEqual([]);
    expect(scopeRefIds('query.zoneIDs', input)).toEqual([]);
  });
});
