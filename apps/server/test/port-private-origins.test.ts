import type { AnyRoute } from '@rampart/contract';
import {
  addSitePorts,
  addSitePortUpstreams,
  batchCreateSitePorts,
  createDomains,
  createSimpleDomains,
  listSitePorts,
  listSitePortUpstreams,
  putPrivateOriginsSetting,
  updateSitePortUpstream,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { refusedFields, sendAs, type Token } from './helpers/call.js';
import { operatorCalls } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Layer-4 port upstreams on loopback and private addresses follow the operator's private-origins
// setting (routes/private-origins.ts) on every route that saves one, with the answer of the layer-7
// origin check: 101003 naming each field with `originNotAllowed` while off, saved once on. The
// control plane runs without RAMPART_ALLOW_PRIVATE_ORIGINS, so the setting alone decides.

let t: TestApp;
let client: Token;
let user: Token;
let web: number;
let game: number;
let portId: number;
let upstreamId: number;

const site = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, user, route, ...args);

/** Every route that saves a layer-4 port upstream, each given the address to save (ports apart per call). */
function writes(ip: string, n: number) {
  const port = 20000 + n * 10;
  return {
    addSitePorts: () =>
      site(addSitePorts, { params: { siteId: game }, body: { ports: [{ port, upstreams: [{ ip, port: 9000 }] }] } }),
    batchCreateSitePorts: () =>
      site(batchCreateSitePorts, {
        params: { siteId: game },
        body: {
          portFrom: port + 1,
          portTo: port + 2,
          upstreamPortFrom: 9001,
          upstreamPortTo: 9002,
          upstreams: [{ ip }],
        },
      }),
    addSitePortUpstreams: () =>
      site(addSitePortUpstreams, { params: { siteId: game, portId }, body: { upstreams: [{ ip, port: 9000 + n }] } }),
    updateSitePortUpstream: () =>
      site(updateSitePortUpstream, {
        params: { siteId: game, portId },
        body: { id: upstreamId, ip, port: 9100 + n, backup: true },
      }),
  };
}

const FIELDS = {
  addSitePorts: 'ports.0.upstreams.0.ip:originNotAllowed',
  batchCreateSitePorts: 'upstreams.0.ip:originNotAllowed',
  addSitePortUpstreams: 'upstreams.0.ip:originNotAllowed',
  updateSitePortUpstream: 'ip:originNotAllowed',
};

const ADDRESSES = ['127.0.0.1', '10.1.2.3', '192.168.0.9', '::1'];

async function portCount(): Promise<number> {
  return (await site(listSitePorts, { params: { siteId: game } })).json().total;
}

async function upstreamIps(): Promise<string[]> {
  const list = (await site(listSitePortUpstreams, { params: { siteId: game, portId } })).json().data;
  return list.map((u: { ip: string }) => u.ip).sort();
}

beforeAll(async () => {
  t = await createTestApp({ config: { allowPrivateOrigins: false } });
  client = await signIn(t.app, 'client');
  user = await signIn(t.app, 'user');
  const userID = await rootId(t.app, 'user');
  const make = operatorCalls(t.app, client);
  const zoneId = await make.zone('Asia');
  web = await make.site('web', userID, await make.product('CDN', 7, [await make.group(zoneId, 'web', 7)]));
  game = await make.site('game', userID, await make.product('L4', 4, [await make.group(zoneId, 'tcp', 4)]));
  const made = await site(addSitePorts, {
    params: { siteId: game },
    body: {
      ports: [
        {
          port: 25565,
          upstreams: [
            { ip: '1.1.1.1', port: 25565 },
            { ip: '9.9.9.9', port: 25566 },
          ],
        },
      ],
    },
  });
  expect(made.statusCode, made.body).toBe(200);
  portId = made.json().data[0].id;
  const upstreams: { id: number; ip: string }[] = (
    await site(listSitePortUpstreams, { params: { siteId: game, portId } })
  ).json().data;
  const second = upstreams.find((u) => u.ip === '9.9.9.9');
  if (!second) throw new Error('the second upstream was not saved');
  upstreamId = second.id;
}, 60_000);
afterAll(async () => t.close());

describe('layer-4 port upstreams on private addresses', () => {
  it('are refused while the operator has not allowed them, on every route, as a layer-7 origin is', async () => {
    for (const [n, ip] of ADDRESSES.entries()) {
      for (const [route, write] of Object.entries(writes(ip, n))) {
        // Each refused field is named once, though a batch makes one port per number of its range.
        expect(refusedFields(await write()), `${route} ${ip}`).toEqual([FIELDS[route as keyof typeof FIELDS]]);
      }
      // The layer-7 check answers the same code and key for the same address.
      const domain = await site(createDomains, {
        params: { siteId: web },
        body: { domains: [{ name: `d${n}.example.com`, upstreams: [{ ip, port: 8080 }] }] },
      });
      expect(refusedFields(domain)).toEqual(['domains.0.upstreams.0.ip:originNotAllowed']);
      // One upstream list for several names: each refused upstream is named once.
      const simple = await site(createSimpleDomains, {
        params: { siteId: web },
        body: {
          names: [`s${n}a.example.com`, `s${n}b.example.com`],
          upstreams: [
            { ip, port: 8080 },
            { ip: '1.1.1.1', port: 8080 },
            { ip, port: 8081 },
          ],
        },
      });
      expect(refusedFields(simple)).toEqual(['upstreams.0.ip:originNotAllowed', 'upstreams.2.ip:originNotAllowed']);
    }
    // Nothing was saved.
    expect(await portCount()).toBe(1);
    expect(await upstreamIps()).toEqual(['1.1.1.1', '9.9.9.9']);
  });

  it('are saved once the operator allows them, on every route', async () => {
    expect((await sendAs(t.app, client, putPrivateOriginsSetting, { body: { allowed: true } })).statusCode).toBe(200);
    for (const [n, ip] of ['127.0.0.1', '10.1.2.3'].entries()) {
      for (const [route, write] of Object.entries(writes(ip, n))) {
        const res = await write();
        expect(res.statusCode, `${route} ${ip}: ${res.body}`).toBe(200);
      }
    }
    // Two single ports and two batches of two, beside the first.
    expect(await portCount()).toBe(7);
    // The added upstreams, and the updated one holding the last address written.
    expect(await upstreamIps()).toEqual(['1.1.1.1', '10.1.2.3', '10.1.2.3', '127.0.0.1']);
  });
});
