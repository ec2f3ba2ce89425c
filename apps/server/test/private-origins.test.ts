import {
  createDomains,
  getNodePlane,
  getPrivateOriginsSetting,
  type PlaneAnswer,
  planeAnswerSchema,
  putPrivateOriginsSetting,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOtherOperator } from './helpers/accounts.js';
import { nodeSend, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The operator's choice of origins on loopback and private addresses (routes/private-origins.ts),
// on a control plane started without RAMPART_ALLOW_PRIVATE_ORIGINS: refused by default, for saved
// IP origins and in the plane's meta the nodes resolve host names by; allowed once chosen, for that
// operator only.

let t: TestApp;
let f: SiteFixture;
let rival: Token;
let rivalNode: JoinedNode;
beforeAll(async () => {
  t = await createTestApp({ config: { allowPrivateOrigins: false } });
  f = await siteFixture(t);
  rival = await signInOtherOperator(t.app);
  rivalNode = await joinNode(t.app, rival, 'rival-edge');
}, 60_000);
afterAll(async () => t.close());

/** The meta of the plane the node is answered now (a whole plane, as a node that holds none asks). */
async function metaOf(node: JoinedNode) {
  const res = await nodeSend(t.app, node, getNodePlane, { query: {} });
  expect(res.statusCode, res.body).toBe(200);
  return (planeAnswerSchema.parse(res.json().data) as PlaneAnswer).meta;
}

const setting = async (who: Token) => (await sendAs(t.app, who, getPrivateOriginsSetting, {})).json().data;
const put = (who: Token, allowed: boolean) => sendAs(t.app, who, putPrivateOriginsSetting, { body: { allowed } });
const privateOrigin = (name: string, ip = '127.0.0.1') =>
  f.call(
    createDomains,
    { params: { siteId: f.siteId }, body: { domains: [{ name, upstreams: [{ ip, port: 8080 }] }] } },
    f.user,
  );

describe('private origins as an operator setting', () => {
  it('refuses private origins by default: saved IP origins, and the meta tells the nodes nothing else', async () => {
    expect(await setting(f.client)).toEqual({ allowed: false });
    expect((await metaOf(f.node)).allowPrivateOrigins).toBeUndefined();
    for (const ip of ['127.0.0.1', '10.1.2.3', '192.168.0.9']) {
      const res = await privateOrigin(`refused-${ip.replaceAll('.', '-')}.example`, ip);
      expect(res.statusCode).toBe(400);
      const fields: { field: string; key: string }[] = res.json().extra.fields;
      expect(fields.map((e) => `${e.field}:${e.key}`)).toEqual(['domains.0.upstreams.0.ip:originNotAllowed']);
    }
  });

  it("allows them once the operator chooses so, for that operator's customers and nodes only", async () => {
    const res = await put(f.client, true);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ allowed: true });
    expect(await setting(f.client)).toEqual({ allowed: true });
    expect((await metaOf(f.node)).allowPrivateOrigins).toBe(true);
    const saved = await privateOrigin('lab.example');
    expect(saved.statusCode, saved.body).toBe(200);
    // Another operator's choice and nodes are untouched.
    expect(await setting(rival)).toEqual({ allowed: false });
    expect((await metaOf(rivalNode)).allowPrivateOrigins).toBeUndefined();
  });

  it('refuses them again once the operator takes the choice back', async () => {
    expect((await put(f.client, false)).statusCode).toBe(200);
    expect((await metaOf(f.node)).allowPrivateOrigins).toBeUndefined();
    expect((await privateOrigin('again.example')).statusCode).toBe(400);
  });

  it('is the operator’s to read and change, not a customer’s, and takes a boolean only', async () => {
    expect((await sendAs(t.app, f.user, getPrivateOriginsSetting, {})).statusCode).toBe(403);
    expect((await sendAs(t.app, f.user, putPrivateOriginsSetting, { body: { allowed: true } })).statusCode).toBe(403);
    const bad = await sendAs(t.app, f.client, putPrivateOriginsSetting, { body: { allowed: 'yes' as never } });
    expect(bad.json()).toMatchObject({ code: 101003 });
    expect(await setting(f.client)).toEqual({ allowed: false });
  });
});
