import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpAgents, startAgent, type TestAgent } from './helpers/agent.js';
import { request } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import {
  addSiteDomain,
  type ControlPlane,
  initializeFirstNode,
  type OperatorSetup,
  startOperatorChain,
  waitUntil,
} from './helpers/real-control-plane.js';

/**
 * A traffic allowance through the whole chain (docs/decisions.md "Traffic packages"): requests
 * through a real edge node reach the built control plane's analytics; its traffic check pauses
 * the site once it is over its product's monthly allowance, and the node answers its domain as a
 * disabled one (403) without a reload; lifted by the operator, it serves again. Needs `npm run build`.
 */

let cp: ControlPlane;
let setup: OperatorSetup;
let edge: TestAgent;
let origin: Origin;
const HOST = 'www.metered.test';

interface Usage {
  siteID: number;
  used: number;
  restriction: 'pause' | 'throttle' | null;
}
const usage = async () =>
  (await setup.operator.call<Usage[]>('GET', 'client/traffic/monthlyUsages?page=1&pageSize=25')).find(
    (row) => row.siteID === setup.siteId,
  );

beforeAll(async () => {
  origin = await startOrigin('metered');
  ({ cp, setup } = await startOperatorChain({ RAMPART_TRAFFIC_CHECK_TICK_MS: '300' }));
  edge = await startAgent({ controlPlane: cp.url, joinToken: setup.joinToken });
  await initializeFirstNode(setup);
  await addSiteDomain(setup, HOST, origin.port);
  await waitUntil(async () => (await request(edge.ports.http, HOST)).status === 200, 30_000, 100);
}, 120_000);

afterAll(async () => {
  await cleanUpAgents();
  await cp?.destroy();
  await origin?.close();
});

describe('a site over its monthly allowance', () => {
  it('is paused at the edge once its traffic is counted, and serves again when the operator lifts it', async () => {
    const [product] = await setup.operator.call<{ id: number; name: string }[]>(
      'GET',
      'client/products?page=1&pageSize=10',
    );
    if (!product) throw new Error('no product');
    // A small allowance: a few requests' responses go over it.
    await setup.operator.call('PUT', 'client/product', {
      id: product.id,
      name: product.name,
      portType: 7,
      mainGroupIDs: [setup.groupId],
      monthlyTraffic: 2000,
      overTraffic: 'pause',
    });
    for (let i = 0; i < 10; i++) expect((await request(edge.ports.http, HOST, `/page/${i}`)).status).toBe(200);

    // Shipped, counted, checked, restricted and pushed to the node: the domain answers 403.
    const pausedAfter = await waitUntil(async () => (await request(edge.ports.http, HOST)).status === 403, 60_000, 200);
    expect(await usage()).toMatchObject({ restriction: 'pause' });
    expect((await usage())?.used).toBeGreaterThan(2000);
    expect(pausedAfter).toBeLessThan(60_000);

    await setup.operator.call('PATCH', 'client/site/trafficRestriction', { ids: [setup.siteId] });
    await waitUntil(async () => (await request(edge.ports.http, HOST)).status === 200, 30_000, 100);
    expect(await usage()).toMatchObject({ restriction: null });
    // The check leaves a lifted site alone for the rest of the month.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await request(edge.ports.http, HOST)).status).toBe(200);
  });
});
