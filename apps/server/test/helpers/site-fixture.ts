import type { AnyRoute } from '@rampart/contract';
import { createDomains, getNodeSnapshot, initializeNodes } from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { expect } from 'vitest';
import { addAccount, rootId } from './accounts.js';
import { signIn } from './auth.js';
import { nodeSend, sendAs, type Token } from './call.js';
import { joinNode } from './edge-node.js';
import { operatorCalls, webProduct } from './operators.js';
import type { TestApp } from './test-app.js';

/**
 * The setting most site-feature tests start from: the root operator (`client`) with a zone, a
 * layer-7 group and a product on it; the root customer's (`user`) site `shop` and a neighbouring
 * customer's (`other`) site on the same product; one node initialised on the group, so snapshots
 * carry what the sites serve. `call` calls the API as the operator unless given a token;
 * `snapshot()` reads the node's snapshot; `addDomains` adds domains (origin 127.0.0.1:8080) to the
 * customer's site or the neighbour's and answers their ids.
 */
export type SiteFixture = Awaited<ReturnType<typeof siteFixture>>;

export async function siteFixture(t: TestApp, otherSiteName = 'next door') {
  const client = await signIn(t.app, 'client');
  const user = await signIn(t.app, 'user');
  const clientRoot = await rootId(t.app, 'client');
  const neighbourId = await addAccount(t.app, 'user', 'neighbour', clientRoot);
  const other = await signIn(t.app, 'user', 'neighbour');
  const call = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, client, route, ...args);

  const { zoneId, groupId, productId } = await webProduct(t.app, client);
  const make = operatorCalls(t.app, client);
  const siteId = await make.site('shop', await rootId(t.app, 'user'), productId);
  const otherSiteId = await make.site(otherSiteName, neighbourId, productId);
  const node = await joinNode(t.app, client, 'edge-1');
  await call(initializeNodes, { body: { ids: [node.nodeId], zoneID: zoneId, groupID: groupId } });

  return {
    client,
    user,
    other,
    zoneId,
    groupId,
    productId,
    siteId,
    otherSiteId,
    /** The neighbour's account (the owner of `otherSiteId`). */
    neighbourId,
    node,
    call,
    async snapshot() {
      const res = await nodeSend(t.app, node, getNodeSnapshot, undefined);
      expect(res.statusCode).toBe(200);
      return res.json().data;
    },
    async addDomains(names: string[], site: 'mine' | 'other' = 'mine'): Promise<number[]> {
      const [id, token] = site === 'mine' ? [siteId, user] : [otherSiteId, other];
      const domains = names.map((name) => ({ name, upstreams: [{ ip: '127.0.0.1', port: 8080 }] }));
      const res = await call(createDomains, { params: { siteId: id }, body: { domains } }, token);
      expect(res.statusCode).toBe(200);
      return (res.json().data as { id: number }[]).map((d) => d.id);
    },
  };
}
