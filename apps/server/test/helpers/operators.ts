import { type AnyRoute, createGroup, createProduct, createSite, createZone, initializeNodes } from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { signInOtherOperator } from './accounts.js';
import { signIn } from './auth.js';
import { call, send, sendAs, type Token } from './call.js';
import { joinNode } from './edge-node.js';
import { createTestApp, type TestApp } from './test-app.js';

/**
 * What the operator builds before a test can start (zones, groups, products, customers' sites),
 * called through the API as `operator`: each answers the new object's id and throws on a refusal,
 * so a test that asserts how one of these calls is answered makes the call itself.
 */
export function operatorCalls(app: FastifyInstance, operator: Token) {
  const as = { token: operator };
  return {
    zone: async (name: string): Promise<number> => (await call(app, createZone, { body: { name } }, as)).data.id,
    async group(zoneID: number, name: string, portType: 4 | 7 = 7, isBackup?: boolean): Promise<number> {
      return (await call(app, createGroup, { params: { zoneID }, body: { name, portType, isBackup } }, as)).data.id;
    },
    async product(name: string, portType: 4 | 7, mainGroupIDs: number[], backupGroupIDs?: number[]): Promise<number> {
      return (await call(app, createProduct, { body: { name, portType, mainGroupIDs, backupGroupIDs } }, as)).data.id;
    },
    async site(siteName: string, userID: number, productID: number, tags?: string[]): Promise<number> {
      return (await call(app, createSite, { body: { siteName, userID, productID, tags } }, as)).data.siteID;
    },
  };
}

/**
 * The chain most site tests start from: zone `Asia`, the layer-7 group `web` on it and the product
 * `CDN` serving from that group.
 */
export async function webProduct(
  app: FastifyInstance,
  operator: Token,
): Promise<{ zoneId: number; groupId: number; productId: number }> {
  const make = operatorCalls(app, operator);
  const zoneId = await make.zone('Asia');
  const groupId = await make.group(zoneId, 'web');
  const productId = await make.product('CDN', 7, [groupId]);
  return { zoneId, groupId, productId };
}

/**
 * The setting of the zone, group and node tests: the operator (`client`) and a second operator
 * (`rival`) signed in, and the operator's zones `Asia` (`zoneId`) and `Europe` (`otherZoneId`).
 */
export async function twoZones(app: FastifyInstance) {
  const client = await signIn(app, 'client');
  const rival = await signInOtherOperator(app);
  const make = operatorCalls(app, client);
  const zoneId = await make.zone('Asia');
  return { client, rival, zoneId, otherZoneId: await make.zone('Europe') };
}

/**
 * A file of zone, group and node tests: a test app (made with `options`) and {@link twoZones}, set
 * up before the file's tests and closed after them; read its fields inside the tests.
 */
export function twoZonesFile(options?: Parameters<typeof createTestApp>[0]) {
  /** Sends `route` as the operator (`client`). */
  const call = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(z.t.app, z.client, route, ...args);
  const z = { call } as { t: TestApp; call: typeof call } & Awaited<ReturnType<typeof twoZones>>;
  beforeAll(async () => {
    z.t = await createTestApp(options);
    Object.assign(z, await twoZones(z.t.app));
  });
  afterAll(async () => z.t.close());
  return z;
}

/** Registers a node with the operator's join token and initialises it in the zone; answers its id. */
export async function initializedNode(
  t: TestApp,
  operator: { accessToken: string },
  zoneId: number,
  hostname: string,
  ips = ['192.0.2.30'],
): Promise<number> {
  const { nodeId } = await joinNode(t.app, operator, hostname, ips);
  const init = await send(t.app, initializeNodes, { body: { ids: [nodeId], zoneID: zoneId } }, { token: operator });
  if (init.statusCode !== 200) throw new Error(`initialize failed: ${init.body}`);
  return nodeId;
}
