import type { AnyRoute } from '@rampart/contract';
import {
  addSitePorts,
  addSitePortUpstreams,
  addUpstreams,
  createDomains,
  createSimpleDomains,
  listDomains,
  listUpstreams,
  modifyUpstreamIPs,
  replaceDomainsUpstreams,
  updateDomain,
  updateUpstream,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { refusedFields, sendAs, type Token } from './helpers/call.js';
import { joinNode } from './helpers/edge-node.js';
import { operatorCalls } from './helpers/operators.js';
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

const site = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, user, route, ...args);

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  user = await signIn(t.app, 'user');
  const userID = await rootId(t.app, 'user');
  const make = operatorCalls(t.app, client);
  const zoneId = await make.zone('Asia');
  web = await make.site('web', userID, await make.product('CDN', 7, [await make.group(zoneId, 'web', 7)]));
  game = await make.site('game', userID, await make.product('L4', 4, [await make.group(zoneId, 'tcp', 4)]));
  await joinNode(t.app, client, 'edge-1');
});
afterAll(async () => t.close());

describe("origins on the operator's own node sockets", () => {
  it('refuses a domain origin on a node address and a listen port, in any form of the address', async () => {
    const res = await site(createDomains, {
      params: { siteId: web },
      body: {
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
      },
    });
    expect(refusedFields(res)).toEqual([
      'domains.0.upstreams.0.ip:originIsNode',
      'domains.0.upstreams.1.ip:originIsNode',
    ]);
    const ok = await site(createDomains, {
      params: { siteId: web },
      body: {
        domains: [{ name: 'a.example.com', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }],
      },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses it on every other route that writes a domain upstream', async () => {
    const domainId = (await site(listDomains, { params: { siteId: web } })).json().data[0].id;
    const upstreamId = (await site(listUpstreams, { params: { siteId: web, domainId } })).json().data[0].id;
    expect(
      refusedFields(
        await site(addUpstreams, {
          params: { siteId: web, domainId },
          body: { upstreams: [{ ip: '127.0.0.1', port: 443 }] },
        }),
      ),
    ).toEqual(['upstreams.0.ip:originIsNode']);
    expect(
      refusedFields(
        await site(updateUpstream, {
          params: { siteId: web, domainId },
          body: { id: upstreamId, ip: '127.0.0.1', port: 80 },
        }),
      ),
    ).toEqual(['ip:originIsNode']);
    expect(
      refusedFields(
        await site(createSimpleDomains, {
          params: { siteId: web },
          body: {
            names: ['b.example.com'],
            upstreams: [{ ip: '127.0.0.1', port: 80 }],
          },
        }),
      ),
    ).toEqual(['upstreams.0.ip:originIsNode']);
    expect(
      refusedFields(
        await site(replaceDomainsUpstreams, {
          params: { siteId: web },
          body: {
            domainIDs: [domainId],
            upstreams: [{ ip: '127.0.0.1', port: 443 }],
          },
        }),
      ),
    ).toEqual(['upstreams.0.ip:originIsNode']);
    expect(
      refusedFields(
        await site(updateDomain, {
          params: { siteId: web },
          body: { id: domainId, upstreams: [{ ip: '127.0.0.1', port: 80 }] },
        }),
      ),
    ).toEqual(['upstreams.0.ip:originIsNode']);
    // Moving upstreams on 80 to the node's address: all or none.
    expect(
      (
        await site(addUpstreams, {
          params: { siteId: web, domainId },
          body: { upstreams: [{ ip: '198.51.100.9', port: 80 }] },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      refusedFields(
        await site(modifyUpstreamIPs, {
          params: { siteId: web },
          body: {
            domainIDs: [domainId],
            oldIP: '198.51.100.9',
            newIP: '127.0.0.1',
          },
        }),
      ),
    ).toEqual(['newIP:originIsNode']);
    const ips = (await site(listUpstreams, { params: { siteId: web, domainId } }))
      .json()
      .data.map((u: { ip: string; port: number }) => `${u.ip}:${u.port}`);
    expect(ips.sort()).toEqual(['127.0.0.1:8080', '198.51.100.9:80']);
  });

  it("refuses a layer-4 upstream on a node address and a listen port or a site's port", async () => {
    const res = await site(addSitePorts, {
      params: { siteId: game },
      body: {
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
      },
    });
    expect(refusedFields(res)).toEqual(['ports.0.upstreams.0.ip:originIsNode', 'ports.0.upstreams.1.ip:originIsNode']);
    const ok = await site(addSitePorts, {
      params: { siteId: game },
      body: {
        ports: [{ port: 25565, upstreams: [{ ip: '127.0.0.1', port: 25600 }] }],
      },
    });
    expect(ok.statusCode).toBe(200);
    const portId = ok.json().data[0].id;
    expect(
      refusedFields(
        await site(addSitePortUpstreams, {
          params: { siteId: game, portId },
          body: { upstreams: [{ ip: '127.0.0.1', port: 25565 }] },
        }),
      ),
    ).toEqual(['upstreams.0.ip:originIsNode']);
  });
});
