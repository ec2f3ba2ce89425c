import { createHash } from 'node:crypto';
import {
  createZone,
  deleteAsnDatabase,
  getAsnDatabase,
  getGeoDatabase,
  setAccountZones,
  uploadAsnDatabase,
  uploadGeoDatabase,
} from '@rampart/contract';
import { asnRecord, geoRecord, MmdbTyped, writeMmdb } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MmdbFile } from '../src/modules/geo/mmdb-reader.js';
import { addAccount, giveRole, rootId, signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { sendAs, sendFile, type Token } from './helpers/call.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The operator's ASN database (client/setting/asnDatabase): the second MaxMind DB slot beside the
// geo database, checked, kept, replaced and removed by the same code. Its use at ingest (the ASN
// tops) is in l4-statistics.test.ts.

const ASN_DB = writeMmdb(
  [
    { cidr: '203.0.113.0/24', data: asnRecord(13335, 'Cloudflare, Inc.') },
    { cidr: '198.51.100.0/24', data: asnRecord(64500, 'Example Net') },
    { cidr: '2001:db8::/32', data: asnRecord(13335, 'Cloudflare, Inc.') },
  ],
  { databaseType: 'GeoLite2-ASN', buildEpoch: 1_700_000_000 },
);
/** The flat schema of IPinfo's files: `asn` as "AS…", the name in `name`. */
const FLAT_DB = writeMmdb(
  [
    { cidr: '192.0.2.0/24', data: { asn: 'AS64501', name: 'Flat Org', domain: 'flat.example' } },
    { cidr: '192.0.3.0/24', data: { asn: 64502, as_name: 'Other Org' } },
  ],
  { databaseType: 'ipinfo asn.mmdb' },
);
const CITY_DB = writeMmdb(
  [{ cidr: '127.0.0.2/32', data: geoRecord('CN', { geonameId: 1816670, names: { en: 'Beijing' } }) }],
  { databaseType: 'GeoLite2-City' },
);
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let t: TestApp;
let client: Token;
let user: Token;
const upload = (bytes: Buffer | null, token: Token = client) => sendFile(t.app, uploadAsnDatabase, bytes, token);
const current = async (token: Token = client) => {
  const res = await sendAs(t.app, token, getAsnDatabase);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  user = await signIn(t.app, 'user');
});
afterAll(async () => t?.close());

describe('the reader of ASN databases', () => {
  it('lists the autonomous systems of both schemas, and none in a City database', async () => {
    expect(await new MmdbFile(ASN_DB).asns()).toEqual(
      new Map([
        [13335, 'Cloudflare, Inc.'],
        [64500, 'Example Net'],
      ]),
    );
    expect(await new MmdbFile(FLAT_DB).asns()).toEqual(
      new Map([
        [64501, 'Flat Org'],
        [64502, 'Other Org'],
      ]),
    );
    expect((await new MmdbFile(CITY_DB).asns()).size).toBe(0);
  });

  it('places no IPv6 address in an IPv4 database', () => {
    // The writer's tree read as an IPv4 one: its 2001:db8::/32 is 32.1.13.184/32 there.
    const v4 = new MmdbFile(
      writeMmdb([{ cidr: '2001:db8::/32', data: asnRecord(64500, 'Example Net') }], {
        databaseType: 'GeoLite2-ASN',
        metadataOverrides: { ip_version: new MmdbTyped('uint16', 4) },
      }),
    );
    expect(v4.lookup('32.1.13.184')).toMatchObject({ autonomous_system_number: 64500 });
    expect(v4.lookup('2001:db8::1')).toBeUndefined();
  });
});

describe('the ASN database', () => {
  it('refuses what is not a MaxMind DB with ASN records, naming the file', async () => {
    const cases: [Buffer | null, string][] = [
      [null, 'required'],
      [Buffer.from('hello'), 'asnDatabaseFile'],
      [CITY_DB, 'asnDatabaseFile'],
      // ASN 0 is reserved: a record naming it names no autonomous system.
      [
        writeMmdb([{ cidr: '10.0.0.0/8', data: asnRecord(0, 'nobody') }], { databaseType: 'GeoLite2-ASN' }),
        'asnDatabaseFile',
      ],
      [ASN_DB.subarray(0, 40), 'asnDatabaseFile'],
    ];
    for (const [bytes, key] of cases) {
      const res = await upload(bytes);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe(101003);
      expect(res.json().extra.fields).toMatchObject([{ field: 'file', key }]);
    }
    expect(await current()).toBeNull();
  });

  it('installs a GeoLite2-ASN database beside the geo slot, without touching it', async () => {
    const res = await upload(ASN_DB);
    expect(res.statusCode, res.body).toBe(200);
    const expected = {
      sha256: sha(ASN_DB),
      databaseType: 'GeoLite2-ASN',
      builtAt: '2023-11-14T22:13:20.000Z',
      ipVersion: 6,
      size: ASN_DB.length,
      asns: 2,
    };
    expect(res.json().data).toMatchObject(expected);
    expect(await current()).toMatchObject(expected);
    expect((await sendAs(t.app, client, getGeoDatabase)).json().data).toBeNull();
    // The geo slot refuses it, as it refuses any file that is not a Country or City database.
    const geo = await sendFile(t.app, uploadGeoDatabase, ASN_DB, client);
    expect(geo.json().extra.fields).toMatchObject([{ field: 'file', key: 'geoDatabaseFile' }]);
  });

  it('replaces it with a database of the flat schema', async () => {
    const res = await upload(FLAT_DB);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ sha256: sha(FLAT_DB), databaseType: 'ipinfo asn.mmdb', asns: 2 });
    expect((await current()).sha256).toBe(sha(FLAT_DB));
  });

  it('is the operator’s: refused to customers, read with the settings read key, written with the write key', async () => {
    expect((await sendAs(t.app, user, getAsnDatabase)).statusCode).toBe(403);
    expect((await upload(ASN_DB, user)).statusCode).toBe(403);
    expect((await sendAs(t.app, user, deleteAsnDatabase)).statusCode).toBe(403);

    const clientRoot = await rootId(t.app, 'client');
    const readerId = await addAccount(t.app, 'client', 'asn-reader', clientRoot);
    await giveRole(t.app, client, 'client', readerId, ['client.settings.read']);
    const reader = await signIn(t.app, 'client', 'asn-reader');
    expect((await current(reader)).sha256).toBe(sha(FLAT_DB));
    expect((await upload(ASN_DB, reader)).statusCode).toBe(403);
    expect((await sendAs(t.app, reader, deleteAsnDatabase)).statusCode).toBe(403);

    // A sub-account restricted to a zone manages it as it manages the geo database: the slot
    // names no zone, it is the operator's.
    const zoneId = (await sendAs(t.app, client, createZone, { body: { name: 'asn zone' } })).json().data.id as number;
    const zonedId = await addAccount(t.app, 'client', 'asn-zoned', clientRoot);
    await giveRole(t.app, client, 'client', zonedId);
    await sendAs(t.app, client, setAccountZones, { params: { clientId: zonedId }, body: { zoneIDs: [zoneId] } });
    const zoned = await signIn(t.app, 'client', 'asn-zoned');
    expect((await current(zoned)).sha256).toBe(sha(FLAT_DB));
    expect((await upload(FLAT_DB, zoned)).statusCode).toBe(200);

    // A rival operator has its own slot: empty, and its upload leaves this one's alone.
    const rival = await signInOtherOperator(t.app, 'asn-rival');
    expect(await current(rival)).toBeNull();
    expect((await upload(ASN_DB, rival)).statusCode).toBe(200);
    expect((await current(rival)).sha256).toBe(sha(ASN_DB));
    expect((await current()).sha256).toBe(sha(FLAT_DB));
    expect((await sendAs(t.app, rival, deleteAsnDatabase)).statusCode).toBe(200);
    expect((await current()).sha256).toBe(sha(FLAT_DB));
  });

  it('is removed by the operator (twice is fine)', async () => {
    expect((await sendAs(t.app, client, deleteAsnDatabase)).statusCode).toBe(200);
    expect(await current()).toBeNull();
    expect((await sendAs(t.app, client, deleteAsnDatabase)).statusCode).toBe(200);
  });
});
