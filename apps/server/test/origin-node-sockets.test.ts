import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, type Method, signIn } from './helpers/auth.js';
import { joinNode } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// An origin that is one of the operator's nodes on a port they listen on would send the edge's
// requests back into the edge. With private origins allowed (as here), the API still refuses it:
// 101003 naming the field with `originIsNode`. The node registered 127.0.0.1; the zone listens on
// 80 and 443; a site's layer-4 port is a node socket too.

let t: TestApp;
let client: { accessToken: string };
let user: { accessToken: string };
let web: number;
let game: number;

const call = (method: Method, url: string, payload?: Record<string, unknown>, token = client) =>
  callApi(t.app, token, method, url, payload);
const site = (id: number, method: Method, url: string, payload?: Record<string, unknown>) =>
  call(method, `user/site/${id}/${url}`, payload, user);

function fields(res: {
  statusCode: number;
  json(): { code: number; extra: { fields: { field: string; key: string }[] } };
}) {
  expect(res.statusCode).toBe(400);
  expect(res.json().code).toBe(101003);
  return res.json().extra.fields.map((f) => `${f.field}:${f.key}`);
}

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  user = await signIn(t.app, 'user');
  const userID = (await t.app.rampart.accounts.findRoot('user'))?.id;
  const zoneId = (await call('POST', 'client/zone', { name: 'Asia' })).json().data.id;
  const group = async (name: string, portType: 4 | 7) =>
    (await call('POST', `client/zone/${zoneId}/group`, { name, portType })).json().data.id;
  const product = async (name: string, portType: 4 | 7, g: number) =>
    (await call('POST', 'client/product', { name, portType, mainGroupIDs: [g] })).json().data.id;
  const newSite = async (name: string, productID: number) =>
    (await call('POST', 'client/site', { siteName: name, userID, productID })).json().data.siteID;
  web = await newSite('web', await product('CDN', 7, await group('web', 7)));
  game = await newSite('game', await product('L4', 4, await group('tcp', 4)));
  await joinNode(t.app, client, 'edge-1');
});
afterAll(async () => t.close());

describe("origins on the operator's own node sockets", () => {
  it('refuses a domain origin on a node address and a listen port, in any form of the address', async () => {
    const res = await site(web, 'POST', 'domains', {
      domains: [
        {
          name: 'a.example.com',
          upstreams: [
            { ip: '127.0.0.1', port: 80 },
            { ip: '::ffff:127.0.0.1', port: 443 },
            { ip: '127.0.0.1', port: 8080 },
            { ip: '127.0.0.2', port: 80 },
          ],
        },
      ],
    });
    expect(fields(res)).toEqual(['domains.0.upstreams.0.ip:originIsNode', 'domains.0.upstreams.1.ip:originIsNode']);
    const ok = await site(web, 'POST', 'domains', {
      domains: [{ name: 'a.example.com', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }],
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses it on every other route that writes a domain upstream', async () => {
    const domainId = (await site(web, 'GET', 'domains')).json().data[0].id;
    const upstreamId = (await site(web, 'GET', `domain/${domainId}/upstreams`)).json().data[0].id;
    expect(
      fields(await site(web, 'POST', `domain/${domainId}/upstreams`, { upstreams: [{ ip: '127.0.0.1', port: 443 }] })),
    ).toEqual(['upstreams.0.ip:originIsNode']);
    expect(
      fields(await site(web, 'PUT', `domain/${domainId}/upstream`, { id: upstreamId, ip: '127.0.0.1', port: 80 })),
    ).toEqual(['ip:originIsNode']);
    expect(
      fields(
        await site(web, 'POST', 'simpleDomains', {
          names: ['b.example.com'],
          upstreams: [{ ip: '127.0.0.1', port: 80 }],
        }),
      ),
    ).toEqual(['upstreams.0.ip:originIsNode']);
    expect(
      fields(
        await site(web, 'PUT', 'domains/upstreams', {
          domainIDs: [domainId],
          upstreams: [{ ip: '127.0.0.1', port: 443 }],
        }),
      ),
    ).toEqual(['upstreams.0.ip:originIsNode']);
    expect(
      fields(await site(web, 'PUT', 'domain', { id: domainId, upstreams: [{ ip: '127.0.0.1', port: 80 }] })),
    ).toEqual(['upstreams.0.ip:originIsNode']);
    // Moving upstreams on 80 to the node's address: all or none.
    expect(
      (await site(web, 'POST', `domain/${domainId}/upstreams`, { upstreams: [{ ip: '198.51.100.9', port: 80 }] }))
        .statusCode,
    ).toBe(200);
    expect(
      fields(
        await site(web, 'PUT', 'domains/modifyUpstreamIPs', {
          domainIDs: [domainId],
          oldIP: '198.51.100.9',
          newIP: '127.0.0.1',
        }),
      ),
    ).toEqual(['newIP:originIsNode']);
    const ips = (await site(web, 'GET', `domain/${domainId}/upstreams`))
      .json()
      .data.map((u: { ip: string; port: number }) => `${u.ip}:${u.port}`);
    expect(ips.sort()).toEqual(['127.0.0.1:8080', '198.51.100.9:80']);
  });

  it("refuses a layer-4 upstream on a node address and a listen port or a site's port", async () => {
    const res = await site(game, 'POST', 'ports', {
      ports: [
        {
          port: 25565,
          upstreams: [
            { ip: '127.0.0.1', port: 443 },
            { ip: '127.0.0.1', port: 25565 },
            { ip: '127.0.0.1', port: 25600 },
          ],
        },
      ],
    });
    expect(fields(res)).toEqual(['ports.0.upstreams.0.ip:originIsNode', 'ports.0.upstreams.1.ip:originIsNode']);
    const ok = await site(game, 'POST', 'ports', {
      ports: [{ port: 25565, upstreams: [{ ip: '127.0.0.1', port: 25600 }] }],
    });
    expect(ok.statusCode).toBe(200);
    const portId = ok.json().data[0].id;
    expect(
      fields(await site(game, 'POST', `port/${portId}/upstreams`, { upstreams: [{ ip: '127.0.0.1', port: 25565 }] })),
    ).toEqual(['upstreams.0.ip:originIsNode']);
  });
});
