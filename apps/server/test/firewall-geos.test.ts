import { createHash } from 'node:crypto';
import type { AnyRoute } from '@rampart/contract';
import {
  addGeoRules,
  dataPlaneSchema,
  deleteGeoDatabase,
  deleteGeoRules,
  GEO_REGIONS,
  GEO_RULE_REGIONS_MAX,
  getGeoDatabase,
  getNodeGeoDatabase,
  listGeoIps,
  listGeoRules,
  updateGeoRule,
  uploadGeoDatabase,
} from '@rampart/contract';
import {
  type CallArgs,
  geoRecord,
  type MmdbNetwork,
  MmdbPointer,
  MmdbTyped,
  writeMmdb,
} from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MmdbFile } from '../src/modules/geo/mmdb-reader.js';
import { signInOtherOperator } from './helpers/accounts.js';
import { fieldNames, nodeSend, rawInput, send, sendAs, sendFile, type Token } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The site firewall's geo rules (user/site/{id}/firewall/setting/geos …), the operator's geo
// database (client/setting/geoDatabase, node API geo/database) and the region tree (user/geoips),
// with small MaxMind DB files the test writes.

const CITY_DB = writeMmdb(
  [
    { cidr: '127.0.0.2/32', data: geoRecord('CN', { geonameId: 1816670, names: { en: 'Beijing', 'zh-CN': '北京' } }) },
    { cidr: '127.0.0.3/32', data: geoRecord('US', { geonameId: 5391959, names: { en: 'San Francisco' } }) },
    { cidr: '2001:db8::/32', data: geoRecord('JP') },
  ],
  { databaseType: 'GeoLite2-City', buildEpoch: 1_700_000_000 },
);
const COUNTRY_DB = writeMmdb([{ cidr: '127.0.0.2/32', data: geoRecord('CN') }], { databaseType: 'GeoLite2-Country' });
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let t: TestApp;
let f: SiteFixture;
let siteId: number;
let otherSiteId: number;

const as = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, f.user, route, ...args);
const rule = { isBlack: true, geoIDs: ['CN'], urlRegex: '.*', blockType: 10 as const };

const upload = (bytes: Buffer | null, token: Token = f.client) => sendFile(t.app, uploadGeoDatabase, bytes, token);

async function plane() {
  const { dataPlane } = await f.snapshot();
  expect(dataPlaneSchema.safeParse(dataPlane).success).toBe(true);
  return dataPlane;
}

beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t, 'blog');
  ({ siteId, otherSiteId } = f);
  await f.addDomains(['www.shop.example']);
});
afterAll(async () => t.close());

describe('the test MaxMind DB writer and the reader', () => {
  it.each([28, 32] as const)('reads %i-bit records as libmaxminddb does', async (recordSize) => {
    const networks = [
      { cidr: '10.1.0.0/16', data: geoRecord('DE', { geonameId: 2950159, names: { en: 'Berlin' } }) },
      { cidr: '127.0.0.3/32', data: geoRecord('US') },
    ];
    const db = new MmdbFile(writeMmdb(networks, { databaseType: 'GeoLite2-City', recordSize }));
    expect(db.metadata.recordSize).toBe(recordSize);
    expect(db.lookup('10.1.200.7')).toMatchObject({ country: { iso_code: 'DE' } });
    expect(db.lookup('127.0.0.3')).toMatchObject({ country: { iso_code: 'US' } });
    expect(db.lookup('10.2.0.1')).toBeUndefined();
    expect((await db.cities()).map((c) => c.geonameId)).toEqual([2950159]);
  });

  it('follows pointers into shared maps, as real databases write them', async () => {
    // The first record is {country: {iso_code: 'DE'}}: its country map starts 9 bytes in (map
    // header, then the key "country"). The second record points at it.
    const networks: MmdbNetwork[] = [
      { cidr: '10.0.0.0/8', data: { country: { iso_code: 'DE' } } },
      {
        cidr: '11.0.0.0/8',
        data: { city: { geoname_id: 2950159, names: { en: 'Berlin' } }, country: new MmdbPointer(9) },
      },
    ];
    const db = new MmdbFile(writeMmdb(networks, { databaseType: 'GeoLite2-City' }));
    expect(db.lookup('11.1.2.3')).toMatchObject({ country: { iso_code: 'DE' }, city: { geoname_id: 2950159 } });
    expect(await db.cities()).toEqual([{ geonameId: 2950159, country: 'DE', names: { en: 'Berlin' } }]);
  });

  it('round-trips metadata, lookups and cities', async () => {
    const db = new MmdbFile(CITY_DB);
    expect(db.metadata).toMatchObject({ databaseType: 'GeoLite2-City', ipVersion: 6, recordSize: 24 });
    expect(db.lookup('127.0.0.2')).toMatchObject({ country: { iso_code: 'CN' }, city: { geoname_id: 1816670 } });
    expect(db.lookup('127.0.0.4')).toBeUndefined();
    expect(db.lookup('2001:db8::1')).toMatchObject({ country: { iso_code: 'JP' } });
    expect((await db.cities()).map((c) => c.geonameId).sort()).toEqual([1816670, 5391959]);
  });
});

describe('the geo database', () => {
  it('refuses what is not a Country or City MaxMind DB, naming the file', async () => {
    const cases: [Buffer | null, string][] = [
      [null, 'required'],
      [Buffer.from('hello'), 'geoDatabaseFile'],
      [writeMmdb([{ cidr: '127.0.0.2/32', data: { asn: 1 } }], { databaseType: 'GeoLite2-ASN' }), 'geoDatabaseFile'],
      [
        writeMmdb([{ cidr: '127.0.0.2/32', data: geoRecord('CN') }], {
          databaseType: 'GeoLite2-City',
          metadataOverrides: { record_size: new MmdbTyped('uint16', 20) },
        }),
        'geoDatabaseFile',
      ],
      [CITY_DB.subarray(0, 40), 'geoDatabaseFile'],
    ];
    for (const [bytes, key] of cases) {
      const res = await upload(bytes);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe(101003);
      expect(res.json().extra.fields).toMatchObject([{ field: 'file', key }]);
    }
    expect((await sendAs(t.app, f.client, getGeoDatabase)).json().data).toBeNull();
  });

  it('installs a City database, names it in the snapshot and serves it to the node by hash', async () => {
    const res = await upload(CITY_DB);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      sha256: sha(CITY_DB),
      kind: 'city',
      databaseType: 'GeoLite2-City',
      builtAt: '2023-11-14T22:13:20.000Z',
      ipVersion: 6,
      size: CITY_DB.length,
      cities: 2,
    });
    expect((await sendAs(t.app, f.client, getGeoDatabase)).json().data.sha256).toBe(sha(CITY_DB));
    expect((await plane()).geoDatabase).toBe(sha(CITY_DB));
    const file = await nodeSend(t.app, f.node, getNodeGeoDatabase, { query: { sha256: sha(CITY_DB) } });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(CITY_DB)).toBe(true);
    const stale = await nodeSend(t.app, f.node, getNodeGeoDatabase, { query: { sha256: 'a'.repeat(64) } });
    expect(stale.json().code).toBe(101018);
  });

  it("keeps operators apart: another operator neither sees nor serves this one's database", async () => {
    const rival = await signInOtherOperator(t.app, 'geo-rival');
    expect((await sendAs(t.app, rival, getGeoDatabase)).json().data).toBeNull();
    expect((await sendAs(t.app, f.user, getGeoDatabase)).statusCode).toBe(403);
  });

  it('gives the region tree: every country with its continent, cities under theirs, in the caller language', async () => {
    const tree = (await as(listGeoIps)).json().data;
    expect(tree.length).toBe(GEO_REGIONS.length);
    const cn = tree.find((n) => n.id === 'CN');
    expect(cn).toMatchObject({ code: 'CN', alpha2: 'CN', countryName: 'China', cityName: '', continentCode: 'AS' });
    expect(cn?.children).toEqual([
      {
        id: '1816670',
        code: '1816670',
        alpha2: 'CN',
        countryName: 'China',
        cityName: 'Beijing',
        continentCode: 'AS',
        children: [],
      },
    ]);
    expect(tree.find((n) => n.id === 'FR')).toMatchObject({ continentCode: 'EU', children: [] });
    const zh = (
      await send(t.app, listGeoIps, undefined, { token: f.user, headers: { 'accept-language': 'zh-CN' } })
    ).json().data;
    expect(zh.find((n) => n.id === 'CN')).toMatchObject({ countryName: '中国', children: [{ cityName: '北京' }] });
  });
});

describe('geo rules', () => {
  it('adds, lists, edits and deletes; enabled rules reach the nodes with their regions split', async () => {
    const added = await as(addGeoRules, {
      params: { siteId },
      body: {
        data: [rule, { isBlack: false, geoIDs: ['US', '1816670', 'US'], urlRegex: '/admin', blockType: 11 }],
      },
    });
    expect(added.statusCode, added.body).toBe(200);
    const [black, white] = added.json().data;
    expect(black).toMatchObject({ siteID: siteId, isBlack: true, geoIDs: ['CN'], blockType: 10, enabled: true });
    expect(white).toMatchObject({ isBlack: false, geoIDs: ['US', '1816670'], urlRegex: '/admin', blockType: 11 });
    expect((await as(listGeoRules, { params: { siteId } })).json().total).toBe(2);

    let p = await plane();
    expect(p.domains[0]?.firewallId).toBe(siteId);
    expect(p.firewalls[0]?.geos).toEqual([
      { id: black.id, url: '.*', white: false, countries: ['CN'], cities: [], action: 'deny' },
      { id: white.id, url: '/admin', white: true, countries: ['US'], cities: [1816670], action: 'drop' },
    ]);

    await as(updateGeoRule, { params: { siteId }, body: { id: black.id, ...rule, enabled: false } });
    p = await plane();
    expect(p.firewalls[0]?.geos?.map((r) => r.id)).toEqual([white.id]);

    await as(deleteGeoRules, { params: { siteId }, body: { ids: [black.id, white.id] } });
    expect((await as(listGeoRules, { params: { siteId } })).json()).toEqual({ data: [], total: 0 });
    expect((await plane()).firewalls).toEqual([]);
  });

  it('a rule that challenges reaches the nodes as that challenge, with the keys that sign passes', async () => {
    expect((await plane()).challenge.keys).toEqual([]);
    const added = await as(addGeoRules, { params: { siteId }, body: { data: [{ ...rule, blockType: 5 }] } });
    expect(added.statusCode, added.body).toBe(200);
    const p = await plane();
    expect(p.firewalls[0]?.geos?.map((r) => r.action)).toEqual(['slider']);
    expect(p.challenge.keys).toHaveLength(3);
    await as(deleteGeoRules, { params: { siteId }, body: { ids: [added.json().data[0].id] } });
    expect((await plane()).challenge.keys).toEqual([]);
  });

  it.each([
    [{ ...rule, geoIDs: [] }, 'data.0.geoIDs'],
    [{ ...rule, geoIDs: undefined }, 'data.0.geoIDs'],
    [{ ...rule, geoIDs: ['ZZ'] }, 'data.0.geoIDs.0'],
    [{ ...rule, geoIDs: ['cn'] }, 'data.0.geoIDs.0'],
    [{ ...rule, geoIDs: ['CN', '0123'] }, 'data.0.geoIDs.1'],
    [{ ...rule, geoIDs: [1816670] }, 'data.0.geoIDs.0'],
    [{ ...rule, isBlack: 'yes' }, 'data.0.isBlack'],
    [{ ...rule, isBlack: undefined }, 'data.0.isBlack'],
    [{ ...rule, urlRegex: '' }, 'data.0.urlRegex'],
    [{ ...rule, urlRegex: '(x' }, 'data.0.urlRegex'],
    [{ ...rule, blockType: 6 }, 'data.0.blockType'],
    [{ ...rule, blockType: 13 }, 'data.0.blockType'],
    [{ ...rule, enabled: 'yes' }, 'data.0.enabled'],
    // A city the operator's database does not know.
    [{ ...rule, geoIDs: ['CN', '99999'] }, 'data.0.geoIDs'],
  ])('refuses %j with 101003 naming %s', async (item, field) => {
    const res = await as(addGeoRules, rawInput({ params: { siteId }, body: { data: [item] } }));
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });

  it(`refuses more than ${GEO_RULE_REGIONS_MAX} regions in a rule with 201003`, async () => {
    const many = Array.from({ length: GEO_RULE_REGIONS_MAX + 1 }, (_, i) => String(1_000_000 + i));
    const res = await as(addGeoRules, { params: { siteId }, body: { data: [{ ...rule, geoIDs: many }] } });
    expect(res.json().code).toBe(201003);
    const [one] = (await as(addGeoRules, { params: { siteId }, body: { data: [rule] } })).json().data;
    const edit = await as(updateGeoRule, { params: { siteId }, body: { id: one.id, ...rule, geoIDs: many } });
    expect(edit.json().code).toBe(201003);
    await as(deleteGeoRules, { params: { siteId }, body: { ids: [one.id] } });
  });

  it('takes cities only from a City database: after a Country one replaces it, city ids are refused', async () => {
    expect((await upload(COUNTRY_DB)).json().data).toMatchObject({ kind: 'country', cities: 0 });
    const res = await as(addGeoRules, { params: { siteId }, body: { data: [{ ...rule, geoIDs: ['1816670'] }] } });
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual(['data.0.geoIDs']);
    const tree = (await as(listGeoIps)).json().data;
    expect(tree.every((n) => n.children.length === 0)).toBe(true);
    // The old file is gone from the node API.
    const old = await nodeSend(t.app, f.node, getNodeGeoDatabase, { query: { sha256: sha(CITY_DB) } });
    expect(old.json().code).toBe(101018);
    expect((await plane()).geoDatabase).toBe(sha(COUNTRY_DB));
    expect((await sendAs(t.app, f.client, deleteGeoDatabase)).statusCode).toBe(200);
    expect((await plane()).geoDatabase).toBeUndefined();
  });

  it("refuses another customer's site and rules as missing ones", async () => {
    const [theirs] = (
      await sendAs(t.app, f.other, addGeoRules, { params: { siteId: otherSiteId }, body: { data: [rule] } })
    ).json().data;
    expect((await as(listGeoRules, { params: { siteId: otherSiteId } })).json().code).toBe(101018);
    expect((await as(updateGeoRule, { params: { siteId }, body: { id: theirs.id, ...rule } })).json().code).toBe(
      101018,
    );
    expect((await as(deleteGeoRules, { params: { siteId }, body: { ids: [theirs.id] } })).json().code).toBe(101018);
    const still = (await sendAs(t.app, f.other, listGeoRules, { params: { siteId: otherSiteId } })).json();
    expect(still.data).toMatchObject([{ id: theirs.id, enabled: true }]);
  });
});
