import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { EdgeFirewall } from '@rampart/contract';
import { geoRecord, writeMmdb } from '@rampart/contract/testing';
import { describe, expect, it } from 'vitest';
import { startServingAgent, type TestAgent } from './helpers/agent.js';
import { agentRig } from './helpers/agent-rig.js';
import { document, domain, upstream } from './helpers/documents.js';
import { snapshotOf } from './helpers/fake-control-plane.js';
import { sendStatus } from './helpers/send.js';

// The agent installs the operator's geo database a snapshot names (agent/geo-database.ts): it
// fetches the file from the node API, checks its SHA-256, keeps it in <state>/geo for Lua, and
// replaces it without a reload when the snapshot names another.

const CN = writeMmdb([{ cidr: '127.0.0.2/32', data: geoRecord('CN') }], { databaseType: 'Test-Country' });
const JP = writeMmdb([{ cidr: '127.0.0.2/32', data: geoRecord('JP') }], { databaseType: 'Test-Country' });
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const FIREWALL: EdgeFirewall = {
  id: 1,
  whitelist: [],
  blacklist: [],
  headers: [],
  antiCC: [],
  userAgents: [],
  intervals: [],
  rates: [],
  geos: [{ id: 7, url: '.*', white: false, countries: ['CN'], cities: [], action: 'deny' }],
};
// Only CN may reach the white site.
const WHITE: EdgeFirewall = {
  ...FIREWALL,
  id: 2,
  geos: [{ id: 8, url: '.*', white: true, countries: ['CN'], cities: [], action: 'deny' }],
};

const rig = agentRig();

function snapshot(version: string, geoDatabase: string | null) {
  const to = [upstream(rig.origin.port)];
  const domains = [
    domain(1, 'geo.example.com', to, { firewallId: 1 }),
    domain(2, 'white.example.com', to, { firewallId: 2 }),
  ];
  const doc = document(version, domains, [], [], { firewalls: [FIREWALL, WHITE] });
  return snapshotOf({ ...doc, geoDatabase });
}

/** The status of a GET for `host` sent from `from` to the agent's nginx. */
const statusFrom = (edge: TestAgent, from: string, host = 'geo.example.com') => sendStatus(from, edge.ports.http, host);

describe('the geo database on the node', () => {
  it('is fetched, checked and kept for Lua; a new one replaces it without a reload', async () => {
    rig.cp.setGeoDatabase(CN);
    const edge = await startServingAgent(rig.cp, snapshot('geo-one', sha(CN)));
    const file = path.join(edge.stateDir, 'geo', `${sha(CN)}.mmdb`);
    expect(((await stat(file)).mode & 0o777).toString(8)).toBe('644');
    expect(await statusFrom(edge, '127.0.0.2')).toBe(403);
    expect(await statusFrom(edge, '127.0.0.3')).toBe(200);
    expect(await statusFrom(edge, '127.0.0.2', 'white.example.com')).toBe(200);
    expect(await statusFrom(edge, '127.0.0.3', 'white.example.com')).toBe(403);
    const master = await edge.agent.nginx.masterPid();

    rig.cp.setGeoDatabase(JP);
    const next = snapshot('geo-two', sha(JP));
    rig.cp.setSnapshot(next);
    await rig.cp.waitForReport((r) => r.appliedVersion === next.version);
    expect(await statusFrom(edge, '127.0.0.2')).toBe(200);
    expect(await statusFrom(edge, '127.0.0.2', 'white.example.com')).toBe(403);
    expect(await readdir(path.join(edge.stateDir, 'geo'))).toEqual([`${sha(JP)}.mmdb`]);
    expect(await edge.agent.nginx.masterPid()).toBe(master);
  });

  it('serves on without a database it cannot fetch (logged), and installs it once it can', async () => {
    rig.cp.setGeoDatabase(null);
    const edge = await startServingAgent(rig.cp, snapshot('geo-three', sha(CN)), { verifyMs: 300 });
    expect(await edge.waitForLog('geo.failed')).toMatchObject({ sha256: sha(CN) });
    expect(await statusFrom(edge, '127.0.0.2')).toBe(200);
    // A file whose hash is not the one named is refused too.
    rig.cp.setGeoDatabase(JP);
    expect(await statusFrom(edge, '127.0.0.3')).toBe(200);
    rig.cp.setGeoDatabase(CN);
    await edge.waitForLog('geo.installed', (e) => e.sha256 === sha(CN), 20_000);
    for (let i = 0; i < 80 && (await statusFrom(edge, '127.0.0.2')) !== 403; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await statusFrom(edge, '127.0.0.2')).toBe(403);
  });
});
