import { createDomains, createZone, initializeNodes, setAccountZones } from '@rampart/contract';
import { expect } from 'vitest';
import { addAccount, giveRole, rootId } from './accounts.js';
import { signIn } from './auth.js';
import { sendAs, type Token } from './call.js';
import { type JoinedNode, joinNode } from './edge-node.js';
import { operatorCalls, webProduct } from './operators.js';
import type { TestApp } from './test-app.js';

/**
 * The tenants the analytics tests (statistics, log search) need to show isolation: the operator
 * (client) with two customers — the root customer's site "shop" and a neighbour's site "next door",
 * each with one domain — a rival operator with a customer, site and domain of its own, two nodes of the
 * operator in two zones (a in the shop's product zone, b in another), and a sub-account of the
 * operator restricted to the other zone (node b's).
 */
export interface AnalyticsTenants {
  client: Token;
  rival: Token;
  user: Token;
  neighbour: Token;
  rivalCustomer: Token;
  zoneSub: Token;
  siteId: number;
  domainId: number;
  neighbourSiteId: number;
  neighbourDomainId: number;
  rivalSiteId: number;
  rivalDomainId: number;
  a: JoinedNode;
  b: JoinedNode;
  rivalNode: JoinedNode;
}

export async function analyticsTenants(t: TestApp, names: { shop: string; neighbour: string; rival: string }) {
  const client = await signIn(t.app, 'client');
  const rivalId = await addAccount(t.app, 'client', 'rival');
  const rival = await signIn(t.app, 'client', 'rival');
  const user = await signIn(t.app, 'user');
  const clientRoot = await rootId(t.app, 'client');
  const neighbourId = await addAccount(t.app, 'user', 'neighbour', clientRoot);
  const neighbour = await signIn(t.app, 'user', 'neighbour');
  const make = operatorCalls(t.app, client);
  const chain = await webProduct(t.app, client);
  const siteId = await make.site('shop', await rootId(t.app, 'user'), chain.productId);
  const neighbourSiteId = await make.site('next door', neighbourId, chain.productId);
  const rivalChain = await webProduct(t.app, rival);
  const rivalUser = await addAccount(t.app, 'user', 'rivalcustomer', rivalId);
  const rivalSiteId = await operatorCalls(t.app, rival).site('elsewhere', rivalUser, rivalChain.productId);
  const rivalCustomer = await signIn(t.app, 'user', 'rivalcustomer');
  const a = await joinNode(t.app, client, 'edge-a');
  const b = await joinNode(t.app, client, 'edge-b');
  const rivalNode = await joinNode(t.app, rival, 'rival-edge');
  const otherZone = (await sendAs(t.app, client, createZone, { body: { name: 'other zone' } })).json().data
    .id as number;
  const otherGroup = await make.group(otherZone, 'other group');
  await sendAs(t.app, client, initializeNodes, {
    body: { ids: [a.nodeId], zoneID: chain.zoneId, groupID: chain.groupId },
  });
  await sendAs(t.app, client, initializeNodes, { body: { ids: [b.nodeId], zoneID: otherZone, groupID: otherGroup } });
  const domain = async (who: Token, site: number, name: string) => {
    const res = await sendAs(t.app, who, createDomains, {
      params: { siteId: site },
      body: { domains: [{ name, upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0]?.id as number;
  };
  const domainId = await domain(user, siteId, names.shop);
  const neighbourDomainId = await domain(neighbour, neighbourSiteId, names.neighbour);
  const rivalDomainId = await domain(rivalCustomer, rivalSiteId, names.rival);
  const subId = await addAccount(t.app, 'client', 'zone-sub', clientRoot);
  await giveRole(t.app, client, 'client', subId);
  await sendAs(t.app, client, setAccountZones, { params: { clientId: subId }, body: { zoneIDs: [otherZone] } });
  const zoneSub = await signIn(t.app, 'client', 'zone-sub');
  return {
    client,
    rival,
    user,
    neighbour,
    rivalCustomer,
    zoneSub,
    siteId,
    domainId,
    neighbourSiteId,
    neighbourDomainId,
    rivalSiteId,
    rivalDomainId,
    a,
    b,
    rivalNode,
  } satisfies AnalyticsTenants;
}
