import {
  addUpstreams,
  createDomains,
  createSimpleDomains,
  getNodePlane,
  listUpstreams,
  modifyUpstreamIPs,
  type PlaneAnswer,
  planeAnswerSchema,
  replaceDomainsUpstreams,
  updateDomain,
  updateUpstream,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSend } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// A domain's origin may be a host name (docs/decisions "Hostname origins"): every call that takes
// an origin takes one, in lower case, on an installation that refuses private origins (a name is
// resolved and judged by the node, not here); the node's plane carries the name as it was saved.

let t: TestApp;
let f: SiteFixture;
beforeAll(async () => {
  t = await createTestApp({ config: { allowPrivateOrigins: false } });
  f = await siteFixture(t);
}, 60_000);
afterAll(async () => t.close());

const ipsOf = async (domainId: number) =>
  (await f.call(listUpstreams, { params: { siteId: f.siteId, domainId } }, f.user))
    .json()
    .data.map((u: { ip: string }) => u.ip);

async function planeUpstreams(name: string): Promise<unknown> {
  const res = await nodeSend(t.app, f.node, getNodePlane, { query: {} });
  expect(res.statusCode, res.body).toBe(200);
  const answer = planeAnswerSchema.parse(res.json().data) as PlaneAnswer;
  if (answer.type !== 'full') throw new Error('a full plane was asked for');
  const entry = answer.entries.find((e) => e.kind === 'domain' && e.key === name);
  return (entry?.value as { origin: { upstreams: unknown } } | undefined)?.origin.upstreams;
}

describe('hostname origins', () => {
  it('every domain call that takes an origin takes a host name, and the plane carries it', async () => {
    const created = await f.call(
      createDomains,
      {
        params: { siteId: f.siteId },
        body: {
          domains: [{ name: 'www.paas.example', upstreams: [{ ip: 'My-App.HerokuApp.com', port: 443 }], scheme: 1 }],
        },
      },
      f.user,
    );
    expect(created.statusCode, created.body).toBe(200);
    const domain = created.json().data[0] as { id: number; upstreamURL: string };
    expect(domain.upstreamURL).toBe('my-app.herokuapp.com:443');
    expect(await ipsOf(domain.id)).toEqual(['my-app.herokuapp.com']);
    expect(await planeUpstreams('www.paas.example')).toEqual([
      { ip: 'my-app.herokuapp.com', port: 443, weight: 1, backup: false },
    ]);

    const site = { siteId: f.siteId };
    const added = await f.call(
      addUpstreams,
      { params: { ...site, domainId: domain.id }, body: { upstreams: [{ ip: 'bucket.s3.example.net', port: 80 }] } },
      f.user,
    );
    expect(added.statusCode, added.body).toBe(200);
    const second = (added.json().data as { id: number; ip: string }[]).find((u) => u.ip === 'bucket.s3.example.net');
    const changed = await f.call(
      updateUpstream,
      {
        params: { ...site, domainId: domain.id },
        body: { id: second?.id ?? 0, ip: 'cdn-origin.example.org', port: 80 },
      },
      f.user,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await ipsOf(domain.id)).toEqual(['my-app.herokuapp.com', 'cdn-origin.example.org']);

    const moved = await f.call(
      modifyUpstreamIPs,
      { params: site, body: { oldIP: 'MY-APP.herokuapp.com', newIP: 'next-app.herokuapp.com' } },
      f.user,
    );
    expect(moved.json().data).toEqual({ domains: 1, upstreams: 1 });
    expect(await ipsOf(domain.id)).toEqual(['next-app.herokuapp.com', 'cdn-origin.example.org']);

    const edited = await f.call(
      updateDomain,
      { params: site, body: { id: domain.id, upstreams: [{ ip: 'one.example.com', port: 8443 }] } },
      f.user,
    );
    expect(edited.statusCode, edited.body).toBe(200);
    const replaced = await f.call(
      replaceDomainsUpstreams,
      { params: site, body: { domainIDs: [domain.id], upstreams: [{ ip: 'two.example.com', port: 80 }] } },
      f.user,
    );
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(await ipsOf(domain.id)).toEqual(['two.example.com']);

    const simple = await f.call(
      createSimpleDomains,
      { params: site, body: { names: ['simple.paas.example'], upstreams: [{ ip: 'three.example.com', port: 80 }] } },
      f.user,
    );
    expect(simple.statusCode, simple.body).toBe(200);
    expect(await planeUpstreams('simple.paas.example')).toEqual([
      { ip: 'three.example.com', port: 80, weight: 1, backup: false },
    ]);
  });

  it.each([
    'origin_1.example.com',
    'origin.example.com:8080',
    'origin.example.com/path',
    'localhost',
    'http://origin.example.com',
    'origin.example.com.',
    '1.2.3.999',
  ])('refuses %j with 101003 naming the field (invalidOriginAddress)', async (ip) => {
    const res = await f.call(
      createDomains,
      {
        params: { siteId: f.siteId },
        body: { domains: [{ name: 'bad.paas.example', upstreams: [{ ip, port: 80 }] }] },
      },
      f.user,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(101003);
    expect(res.json().extra.fields).toContainEqual(
      expect.objectContaining({ field: 'domains.0.upstreams.0.ip', key: 'invalidOriginAddress' }),
    );
  });

  it('still refuses loopback and private IP literals on this installation', async () => {
    const res = await f.call(
      createDomains,
      {
        params: { siteId: f.siteId },
        body: { domains: [{ name: 'lit.paas.example', upstreams: [{ ip: '127.0.0.1', port: 80 }] }] },
      },
      f.user,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().extra.fields).toContainEqual(
      expect.objectContaining({ field: 'domains.0.upstreams.0.ip', key: 'originNotAllowed' }),
    );
  });
});
