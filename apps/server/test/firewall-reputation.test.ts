import { createHash } from 'node:crypto';
import type { AnyRoute } from '@rampart/contract';
import {
  ABUSE_IP_IMPORT_ERRORS_MAX,
  ABUSE_IPS_MAX,
  addAbuseIPs,
  dataPlaneSchema,
  decodeAbuseIPFile,
  deleteAbuseIPs,
  getAbuseIPSetting,
  getNodeAbuseIPs,
  importAbuseIPs,
  listAbuseIPs,
  listBlockedIps,
  reportNodeBlocks,
  updateAbuseIP,
  updateAbuseIPSetting,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { signInOtherOperator } from './helpers/accounts.js';
import { fieldNames, nodeSend, rawInput, sendAs, type Token } from './helpers/call.js';
import { joinNode } from './helpers/edge-node.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// IP trust protection (routes/firewall-reputation.ts): the operator's reputation list
// (client/abuseIPs …, node API reputation/abuseIPs) and a site's setting
// (user/site/{id}/firewall/setting/abuseIP), and what reaches the node's snapshot.

let t: TestApp;
let f: SiteFixture;
let siteId: number;
let otherSiteId: number;

const op = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, f.client, route, ...args);
const as = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, f.user, route, ...args);
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function plane() {
  const { dataPlane } = await f.snapshot();
  const parsed = dataPlaneSchema.safeParse(dataPlane);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  return dataPlane;
}

async function entries(query: z.input<typeof listAbuseIPs.request.query> = {}, token: Token = f.client) {
  const res = await sendAs(t.app, token, listAbuseIPs, { query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function clear() {
  const ids = (await entries({ pageSize: 500 })).data.map((e) => e.id);
  if (ids.length > 0) expect((await op(deleteAbuseIPs, { body: { ids } })).statusCode).toBe(200);
}

async function importText(text: string, mode: 'merge' | 'replace' = 'merge', defaultScore?: number) {
  return op(importAbuseIPs, { body: { text, mode, ...(defaultScore === undefined ? {} : { defaultScore }) } });
}

beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t, 'blog');
  ({ siteId, otherSiteId } = f);
  await f.addDomains(['www.shop.example']);
});
afterAll(async () => t.close());

describe("the operator's list", () => {
  it('adds, lists, edits and deletes entries, normalising them', async () => {
    const added = await op(addAbuseIPs, {
      body: {
        data: [
          { ip: '203.0.113.7', score: 90, memo: 'scanner' },
          { ip: '2001:DB8:0:0::/32', score: 40 },
          { ip: '198.51.100.77/24', score: 70 },
        ],
      },
    });
    expect(added.statusCode, added.body).toBe(200);
    const [one, two, three] = added.json().data;
    expect(one).toMatchObject({ ip: '203.0.113.7', score: 90, memo: 'scanner' });
    expect(two).toMatchObject({ ip: '2001:db8::/32', score: 40, memo: '' });
    expect(three).toMatchObject({ ip: '198.51.100.0/24', score: 70 });

    const listed = await entries();
    expect(listed.total).toBe(3);
    expect(listed.data.map((e) => e.id)).toEqual([three?.id, two?.id, one?.id]);

    const edited = await op(updateAbuseIP, {
      body: { id: one?.id as number, ip: '203.0.113.8', score: 95, memo: 'x' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ id: one?.id, ip: '203.0.113.8', score: 95, memo: 'x' });

    expect((await op(deleteAbuseIPs, { body: { ids: [one?.id as number, two?.id as number] } })).statusCode).toBe(200);
    expect((await entries()).data.map((e) => e.ip)).toEqual(['198.51.100.0/24']);
    await clear();
  });

  it('sorts by score, address or last change and filters by an address inside an entry or by text', async () => {
    await op(addAbuseIPs, {
      body: {
        data: [
          { ip: '10.0.0.0/8', score: 20 },
          { ip: '10.1.2.3', score: 80 },
          { ip: '9.9.9.9', score: 50 },
          { ip: '2001:db8::1', score: 60 },
        ],
      },
    });
    const ips = async (query: Parameters<typeof entries>[0]) => (await entries(query)).data.map((e) => e.ip);
    expect(await ips({ sortBy: 'score', orderBy: 'desc' })).toEqual([
      '10.1.2.3',
      '2001:db8::1',
      '9.9.9.9',
      '10.0.0.0/8',
    ]);
    // Addresses in numeric order (9 before 10), IPv4 before IPv6.
    expect(await ips({ sortBy: 'ip', orderBy: 'asc' })).toEqual(['9.9.9.9', '10.0.0.0/8', '10.1.2.3', '2001:db8::1']);
    expect(await ips({ ip: '10.1.2.3', sortBy: 'score', orderBy: 'asc' })).toEqual(['10.0.0.0/8', '10.1.2.3']);
    expect(await ips({ ip: '10.200.0.1' })).toEqual(['10.0.0.0/8']);
    expect(await ips({ ip: '2001:DB8::1' })).toEqual(['2001:db8::1']);
    expect(await ips({ ip: '9.9' })).toEqual(['9.9.9.9']);
    expect(await ips({ ip: '11.0.0.1' })).toEqual([]);
    const page = await entries({ sortBy: 'ip', orderBy: 'asc', page: 2, pageSize: 3 });
    expect(page).toMatchObject({ total: 4, data: [{ ip: '2001:db8::1' }] });
    await clear();
  });

  it.each([
    [{ ip: '1.2.3.4-1.2.3.5', score: 50 }, 'data.0.ip'],
    [{ ip: 'example.com', score: 50 }, 'data.0.ip'],
    [{ ip: '', score: 50 }, 'data.0.ip'],
    [{ score: 50 }, 'data.0.ip'],
    [{ ip: '1.2.3.4', score: 0 }, 'data.0.score'],
    [{ ip: '1.2.3.4', score: 101 }, 'data.0.score'],
    [{ ip: '1.2.3.4', score: 5.5 }, 'data.0.score'],
    [{ ip: '1.2.3.4', score: '50' }, 'data.0.score'],
    [{ ip: '1.2.3.4' }, 'data.0.score'],
    [{ ip: '1.2.3.4', score: 50, memo: 'm'.repeat(257) }, 'data.0.memo'],
  ])('refuses %j with 101003 naming %s', async (item, field) => {
    const res = await op(addAbuseIPs, rawInput({ body: { data: [item] } }));
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });

  it('refuses duplicates (in the call, in another spelling, or already listed) and keeps nothing of the call', async () => {
    const [held] = (await op(addAbuseIPs, { body: { data: [{ ip: '192.0.2.1', score: 10 }] } })).json().data;
    const res = await op(addAbuseIPs, {
      body: {
        data: [
          { ip: '192.0.2.50', score: 10 },
          { ip: '192.0.2.1/32', score: 10 },
          { ip: '::ffff:192.0.2.50', score: 10 },
        ],
      },
    });
    expect(res.json().code).toBe(101003);
    expect(res.json().extra.fields).toMatchObject([
      { field: 'data.1.ip', key: 'duplicateIP' },
      { field: 'data.2.ip', key: 'duplicateIP' },
    ]);
    expect((await entries()).data.map((e) => e.ip)).toEqual(['192.0.2.1']);
    const [other] = (await op(addAbuseIPs, { body: { data: [{ ip: '192.0.2.2', score: 10 }] } })).json().data;
    const taken = await op(updateAbuseIP, { body: { id: other?.id as number, ip: '192.0.2.1', score: 10 } });
    expect(taken.json().code).toBe(101003);
    expect(fieldNames(taken)).toEqual(['ip']);
    // Saving an entry under its own IP is no duplicate.
    const same = await op(updateAbuseIP, { body: { id: held?.id as number, ip: '192.0.2.1', score: 11 } });
    expect(same.statusCode).toBe(200);
    await clear();
  });

  it('deletes all or none, and answers 101018 for an entry that is not there', async () => {
    const [a] = (await op(addAbuseIPs, { body: { data: [{ ip: '192.0.2.9', score: 10 }] } })).json().data;
    expect((await op(deleteAbuseIPs, { body: { ids: [a?.id as number, 999_999] } })).json().code).toBe(101018);
    expect((await entries()).total).toBe(1);
    expect((await op(updateAbuseIP, { body: { id: 999_999, ip: '192.0.2.10', score: 10 } })).json().code).toBe(101018);
    await clear();
  });

  it(`refuses to go beyond ${ABUSE_IPS_MAX} entries with 101029`, async () => {
    // 100,000 rows through one import, then one more by hand and one more by import.
    const text = Array.from({ length: ABUSE_IPS_MAX }, (_, i) => `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`).join(
      '\n',
    );
    const full = await importText(text, 'replace', 10);
    expect(full.statusCode, full.body.slice(0, 500)).toBe(200);
    expect(full.json().data).toMatchObject({ added: ABUSE_IPS_MAX, total: ABUSE_IPS_MAX });
    const res = await op(addAbuseIPs, { body: { data: [{ ip: '192.0.2.1', score: 10 }] } });
    expect(res.json()).toMatchObject({ code: 101029, extra: { max: ABUSE_IPS_MAX } });
    expect((await importText('192.0.2.1')).json().code).toBe(101029);
    expect((await entries({ ip: '192.0.2.1' })).total).toBe(0);
    // Replacing with fewer is fine.
    expect((await importText('192.0.2.1,5', 'replace')).json().data).toMatchObject({
      removed: ABUSE_IPS_MAX,
      total: 1,
    });
    await clear();
  }, 120_000);

  it("keeps operators apart: another operator neither sees nor changes this one's list", async () => {
    const [mine] = (await op(addAbuseIPs, { body: { data: [{ ip: '192.0.2.77', score: 50 }] } })).json().data;
    const rival = await signInOtherOperator(t.app, 'reputation-rival');
    expect((await entries({}, rival)).total).toBe(0);
    expect((await entries({ ip: '192.0.2.77' }, rival)).total).toBe(0);
    const id = mine?.id as number;
    expect((await sendAs(t.app, rival, updateAbuseIP, { body: { id, ip: '192.0.2.78', score: 1 } })).json().code).toBe(
      101018,
    );
    expect((await sendAs(t.app, rival, deleteAbuseIPs, { body: { ids: [id] } })).json().code).toBe(101018);
    // The same IP in the rival's own list is no duplicate of this one's.
    const theirs = await sendAs(t.app, rival, addAbuseIPs, { body: { data: [{ ip: '192.0.2.77', score: 9 }] } });
    expect(theirs.statusCode).toBe(200);
    expect((await entries()).data).toMatchObject([{ id, ip: '192.0.2.77', score: 50 }]);
    // A customer has no access to the operator's list.
    expect((await as(listAbuseIPs, { query: {} })).statusCode).toBe(403);
    await clear();
  });
});

describe('the import', () => {
  it('merges CSV and plain lines: adds, updates by IP, counts what did not change', async () => {
    await op(addAbuseIPs, {
      body: {
        data: [
          { ip: '192.0.2.1', score: 10, memo: 'old' },
          { ip: '192.0.2.2', score: 20 },
        ],
      },
    });
    const res = await importText(
      [
        'ip,score,memo',
        '# from the feed',
        '192.0.2.1,30,new',
        '192.0.2.2,20',
        '',
        '2001:db8::/48',
        '192.0.2.3,99',
      ].join('\n'),
      'merge',
      45,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ added: 2, updated: 1, unchanged: 1, removed: 0, total: 4 });
    const byIp = Object.fromEntries((await entries()).data.map((e) => [e.ip, [e.score, e.memo]]));
    expect(byIp).toEqual({
      '192.0.2.1': [30, 'new'],
      '192.0.2.2': [20, ''],
      '2001:db8::/48': [45, ''],
      '192.0.2.3': [99, ''],
    });
  });

  it('replaces the whole list', async () => {
    const res = await importText('192.0.2.2,21\n198.51.100.0/24', 'replace');
    expect(res.json().data).toEqual({ added: 1, updated: 1, unchanged: 0, removed: 3, total: 2 });
    const byIp = Object.fromEntries((await entries()).data.map((e) => [e.ip, e.score]));
    expect(byIp).toEqual({ '192.0.2.2': 21, '198.51.100.0/24': 100 });
  });

  it('refuses the whole text naming its bad lines, and changes nothing', async () => {
    const before = (await entries()).data;
    const res = await importText(['192.0.2.50,10', 'bad', '192.0.2.51,200', '192.0.2.50,5'].join('\n'), 'replace');
    expect(res.json().code).toBe(101003);
    expect(res.json().extra.fields).toMatchObject([
      { field: 'text', key: 'abuseIPImportIP', message: 'Line 2: not an IPv4 or IPv6 address or CIDR block' },
      { field: 'text', key: 'abuseIPImportScore' },
      { field: 'text', key: 'abuseIPImportDuplicate', message: 'Line 4: the same IP as line 1' },
    ]);
    expect((await entries()).data).toEqual(before);
  });

  it(`names at most ${ABUSE_IP_IMPORT_ERRORS_MAX} bad lines and counts the others`, async () => {
    const res = await importText(Array.from({ length: 25 }, (_, i) => `bad-${i}`).join('\n'));
    const fields = res.json().extra.fields as { key: string; message: string }[];
    expect(fields).toHaveLength(ABUSE_IP_IMPORT_ERRORS_MAX + 1);
    expect(fields[ABUSE_IP_IMPORT_ERRORS_MAX]).toMatchObject({
      key: 'abuseIPImportMore',
      message: 'and 5 more lines with errors',
    });
  });

  it('is recorded as one call in the operation log, without a row change per entry (an add has them)', async () => {
    const raw = t.db.database.db;
    const changed = async () =>
      Number(
        (
          (await raw.execute(
            sql`SELECT count(*)::int AS n FROM audit_row_changes WHERE table_name = 'abuse_ips'`,
          )) as unknown as { rows: { n: number }[] }
        ).rows[0]?.n,
      );
    const before = await changed();
    await op(addAbuseIPs, { body: { data: [{ ip: '192.0.2.200', score: 10 }] } });
    expect(await changed()).toBe(before + 1);
    const imported = await importText('192.0.2.201\n192.0.2.202\n192.0.2.203');
    expect(imported.json().data).toMatchObject({ added: 3 });
    expect(await changed()).toBe(before + 1);
    const calls = (await raw.execute(
      sql`SELECT count(*)::int AS n FROM audit_logs WHERE action = ${importAbuseIPs.id}`,
    )) as unknown as { rows: { n: number }[] };
    expect(Number(calls.rows[0]?.n)).toBeGreaterThan(0);
  });

  it.each([
    [{ text: '' }, 'text'],
    [{ text: '# only a comment\n\n' }, 'text'],
    [{ text: '1.2.3.4', mode: 'append' }, 'mode'],
    [{ text: '1.2.3.4', defaultScore: 0 }, 'defaultScore'],
    [{ mode: 'merge' }, 'text'],
  ])('refuses %j with 101003 naming %s', async (body, field) => {
    const res = await op(importAbuseIPs, rawInput({ body }));
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });
});

describe("a site's setting", () => {
  it('starts off, saves, and refuses bad values naming the field', async () => {
    expect((await as(getAbuseIPSetting, { params: { siteId } })).json().data).toEqual({
      enabled: false,
      threshold: 60,
      blockType: 10,
    });
    const saved = await as(updateAbuseIPSetting, { params: { siteId }, body: { enabled: true, blockType: 11 } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toEqual({ enabled: true, threshold: 60, blockType: 11 });
    await as(updateAbuseIPSetting, { params: { siteId }, body: { enabled: true, threshold: 75, blockType: 1 } });
    expect((await as(getAbuseIPSetting, { params: { siteId } })).json().data).toEqual({
      enabled: true,
      threshold: 75,
      blockType: 1,
    });
    for (const [body, field] of [
      [{ enabled: true, threshold: 0, blockType: 10 }, 'threshold'],
      [{ enabled: true, threshold: 101, blockType: 10 }, 'threshold'],
      [{ enabled: true, threshold: 50.5, blockType: 10 }, 'threshold'],
      [{ enabled: true, threshold: 50, blockType: 7 }, 'blockType'],
      [{ enabled: true, threshold: 50, blockType: 13 }, 'blockType'],
      [{ enabled: true, threshold: 50 }, 'blockType'],
      [{ enabled: 'yes', threshold: 50, blockType: 10 }, 'enabled'],
    ] as const) {
      const res = await as(updateAbuseIPSetting, rawInput({ params: { siteId }, body }));
      expect(res.json().code, JSON.stringify(body)).toBe(101003);
      expect(fieldNames(res)).toEqual([field]);
    }
    await as(updateAbuseIPSetting, { params: { siteId }, body: { enabled: false, threshold: 60, blockType: 10 } });
  });

  it("refuses another customer's site as a missing one, and changes nothing of it", async () => {
    expect((await as(getAbuseIPSetting, { params: { siteId: otherSiteId } })).json().code).toBe(101018);
    const res = await as(updateAbuseIPSetting, {
      params: { siteId: otherSiteId },
      body: { enabled: true, threshold: 1, blockType: 11 },
    });
    expect(res.json().code).toBe(101018);
    expect((await sendAs(t.app, f.other, getAbuseIPSetting, { params: { siteId: otherSiteId } })).json().data).toEqual({
      enabled: false,
      threshold: 60,
      blockType: 10,
    });
    expect((await sendAs(t.app, f.other, getAbuseIPSetting, { params: { siteId } })).json().code).toBe(101018);
  });
});

describe('the nodes', () => {
  it('carry the setting in the site firewall and the list file by hash; a site without it pays nothing', async () => {
    await clear();
    await op(addAbuseIPs, {
      body: {
        data: [
          { ip: '10.0.0.0/8', score: 30 },
          { ip: '10.1.0.0/16', score: 80 },
          { ip: '2001:db8::1', score: 90 },
        ],
      },
    });
    // Off: no firewall entry, no list.
    let p = await plane();
    expect(p.firewalls).toEqual([]);
    expect(p.abuseIPs).toBeUndefined();

    await as(updateAbuseIPSetting, { params: { siteId }, body: { enabled: true, threshold: 70, blockType: 12 } });
    p = await plane();
    expect(p.domains[0]?.firewallId).toBe(siteId);
    expect(p.firewalls[0]?.reputation).toEqual({ threshold: 70, action: 'dropBlacklist' });
    expect(p.challenge.keys).toEqual([]);
    const hash = p.abuseIPs as string;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);

    const file = await nodeSend(t.app, f.node, getNodeAbuseIPs, { query: { sha256: hash } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/octet-stream');
    expect(sha(file.rawPayload)).toBe(hash);
    expect(decodeAbuseIPFile(file.rawPayload)).toEqual({
      v4: [
        { first: 0x0a000000n, last: 0x0a00ffffn, score: 30 },
        { first: 0x0a010000n, last: 0x0a01ffffn, score: 80 },
        { first: 0x0a020000n, last: 0x0affffffn, score: 30 },
      ],
      v6: [{ first: (0x20010db8n << 96n) | 1n, last: (0x20010db8n << 96n) | 1n, score: 90 }],
    });

    // A challenge mode brings the challenge keys.
    await as(updateAbuseIPSetting, { params: { siteId }, body: { enabled: true, threshold: 70, blockType: 3 } });
    p = await plane();
    expect(p.firewalls[0]?.reputation).toEqual({ threshold: 70, action: 'click' });
    expect(p.challenge.keys).toHaveLength(3);

    // A change of the list is a new file; the old one is no longer served.
    await op(addAbuseIPs, { body: { data: [{ ip: '192.0.2.1', score: 100 }] } });
    p = await plane();
    expect(p.abuseIPs).not.toBe(hash);
    expect((await nodeSend(t.app, f.node, getNodeAbuseIPs, { query: { sha256: hash } })).json().code).toBe(101018);
    const next = await nodeSend(t.app, f.node, getNodeAbuseIPs, { query: { sha256: p.abuseIPs as string } });
    expect(decodeAbuseIPFile(next.rawPayload)?.v4).toContainEqual({
      first: 0xc0000201n,
      last: 0xc0000201n,
      score: 100,
    });

    // Another operator's node is not served this operator's list.
    const rival = await signInOtherOperator(t.app, 'reputation-node-rival');
    const rivalNode = await joinNode(t.app, rival, 'rival-edge');
    const refused = await nodeSend(t.app, rivalNode, getNodeAbuseIPs, { query: { sha256: p.abuseIPs as string } });
    expect(refused.json().code).toBe(101018);

    // An empty list: the setting still travels, the file does not.
    await clear();
    p = await plane();
    expect(p.firewalls[0]?.reputation).toEqual({ threshold: 70, action: 'click' });
    expect(p.abuseIPs).toBeUndefined();

    await as(updateAbuseIPSetting, { params: { siteId }, body: { enabled: false, threshold: 70, blockType: 3 } });
    p = await plane();
    expect(p.firewalls).toEqual([]);
  });

  it('takes a block a DROP + Blacklist setting made into the block list, naming no rule', async () => {
    const now = Math.floor(Date.now() / 1000);
    const res = await nodeSend(t.app, f.node, reportNodeBlocks, {
      body: {
        entries: [
          { siteId, ip: '203.0.113.99', cause: 'reputation', ruleId: siteId, blockedAt: now, expiresAt: now + 3600 },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const listed = (await as(listBlockedIps, { query: { causes: ['reputation'] } })).json();
    expect(listed.data).toMatchObject([{ ip: '203.0.113.99', cause: 'reputation', ruleID: null, siteID: siteId }]);
  });
});
