import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dataOf, defineRoute, okReply, publicAccess, type RouteInput, type RouteParsed, tiers } from './route.js';
import { routeFamily } from './route-family.js';

const zoneParams = z.object({ zoneID: z.coerce.number().int() });
const read = tiers(['client'], 'client.zones.read');
const write = tiers(['client'], 'client.zones.write');
const item = z.object({ id: z.number(), name: z.string() });
const family = routeFamily({ tags: ['zones'], read, write, params: zoneParams });

describe('routeFamily', () => {
  it("makes the route defineRoute makes, from the family's tags, path params and the access of its method", () => {
    const list = family.get('client.items.list', '/client/zone/{zoneID}/items', {
      summary: 'Items of a zone',
      query: z.object({ page: z.coerce.number().int() }),
      response: dataOf(z.array(item)),
    });
    expect(list).toEqual(
      defineRoute({
        id: 'client.items.list',
        method: 'GET',
        path: '/client/zone/{zoneID}/items',
        access: read,
        codes: [],
        summary: 'Items of a zone',
        tags: ['zones'],
        request: { params: zoneParams, query: list.request.query },
        response: list.response,
      }),
    );
    for (const [method, declare] of [
      ['POST', family.post],
      ['PUT', family.put],
      ['PATCH', family.patch],
      ['DELETE', family.delete],
    ] as const) {
      const route = declare('client.item.x', '/client/zone/{zoneID}/item', { summary: 's', response: okReply });
      expect([route.method, route.access]).toEqual([method, write]);
    }
  });

  it('lets a call name its own access, tags, codes and params, and keeps only the request parts it names', () => {
    const route = family.post('auth.x', '/{auth}/x', {
      access: publicAccess,
      tags: ['auth'],
      codes: [101020],
      sendsOnDemand: true,
      params: z.object({ auth: z.string() }),
      body: item,
      response: okReply,
      summary: 's',
    });
    expect(route).toMatchObject({ access: publicAccess, tags: ['auth'], codes: [101020], sendsOnDemand: true });
    expect(Object.keys(route.request).sort()).toEqual(['body', 'params']);
    const bare = routeFamily({ tags: ['t'], read }).get('t.get', '/t', { summary: 's', response: okReply });
    expect(bare.request).toEqual({});
  });

  it('refuses a call with no access, and one whose path and params differ, as defineRoute does', () => {
    const noWrite = routeFamily({ tags: ['t'], read });
    expect(() => noWrite.post('t.post', '/t', { summary: 's', response: okReply })).toThrow(/no access/);
    expect(() => family.get('t.get', '/client/items', { summary: 's', response: okReply })).toThrow(/differ/);
  });

  it('types the call as defineRoute does: its params, body and caller', () => {
    const update = family.put('client.item.update', '/client/zone/{zoneID}/item', {
      summary: 's',
      body: item,
      response: dataOf(item),
    });
    const input: RouteInput<typeof update> = { params: { zoneID: 1 }, body: { id: 1, name: 'a' } };
    // @ts-expect-error the body is required
    const noBody: RouteInput<typeof update> = { params: { zoneID: 1 } };
    const parsed: RouteParsed<typeof update>['params'] = { zoneID: 1 };
    const tier: (typeof update.access.tiers)[number] = 'client';
    expect([input.params, noBody.params, parsed, tier]).toEqual([
      { zoneID: 1 },
      { zoneID: 1 },
      { zoneID: 1 },
      'client',
    ]);
  });
});
