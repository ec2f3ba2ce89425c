import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { abuseIPFileOf, type EdgeFirewall, emptyEdgeFirewall } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { startServingAgent, type TestAgent } from './helpers/agent.js';
import { agentRig } from './helpers/agent-rig.js';
import { document, domain, upstream } from './helpers/documents.js';
import { snapshotOf } from './helpers/fake-control-plane.js';
import { sendStatus } from './helpers/send.js';

// The agent installs the operator's reputation list a snapshot names (agent/reputation-list.ts): it
// fetches the file from the node API, checks its SHA-256 and format, keeps it in <state>/reputation
// for Lua, and replaces it without a reload when the snapshot names another.

const FIRST = Buffer.from(abuseIPFileOf([{ ip: '127.0.0.2', score: 90 }]));
const SECOND = Buffer.from(abuseIPFileOf([{ ip: '127.0.0.3', score: 90 }]));
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const FIREWALL: EdgeFirewall = { ...emptyEdgeFirewall(1), reputation: { threshold: 60, action: 'deny' } };

const rig = agentRig();

function snapshot(version: string, abuseIPs: string | null) {
  const to = [upstream(rig.origin.port)];
  const doc = document(version, [domain(1, 'trust.example.com', to, { firewallId: 1 })], [], [], {
    firewalls: [FIREWALL],
  });
  return snapshotOf({ ...doc, abuseIPs });
}

/** The status of a GET for the site sent from `from` to the agent's nginx. */
const statusFrom = (edge: TestAgent, from: string) => sendStatus(from, edge.ports.http, 'trust.example.com');

describe('the reputation list on the node', () => {
  it('is fetched, checked and kept for Lua; a new one replaces it without a reload', async () => {
    rig.cp.setAbuseIPs(FIRST);
    const edge = await startServingAgent(rig.cp, snapshot('rep-one', sha(FIRST)));
    const file = path.join(edge.stateDir, 'reputation', `${sha(FIRST)}.bin`);
    expect(((await stat(file)).mode & 0o777).toString(8)).toBe('644');
    expect(await statusFrom(edge, '127.0.0.2')).toBe(403);
    expect(await statusFrom(edge, '127.0.0.3')).toBe(200);
    const master = await edge.agent.nginx.masterPid();

    rig.cp.setAbuseIPs(SECOND);
    const next = snapshot('rep-two', sha(SECOND));
    rig.cp.setSnapshot(next);
    await rig.cp.waitForReport((r) => r.appliedVersion === next.version);
    expect(await statusFrom(edge, '127.0.0.2')).toBe(200);
    expect(await statusFrom(edge, '127.0.0.3')).toBe(403);
    expect(await readdir(path.join(edge.stateDir, 'reputation'))).toEqual([`${sha(SECOND)}.bin`]);
    expect(await edge.agent.nginx.masterPid()).toBe(master);

    // A snapshot without a list removes the file.
    const none = snapshot('rep-none', null);
    rig.cp.setSnapshot(none);
    await rig.cp.waitForReport((r) => r.appliedVersion === none.version);
    expect(await readdir(path.join(edge.stateDir, 'reputation'))).toEqual([]);
    expect(await statusFrom(edge, '127.0.0.3')).toBe(200);
  });

  it('serves on without a list it cannot fetch or that is not one (logged), and installs it once it can', async () => {
    rig.cp.setAbuseIPs(null);
    const edge = await startServingAgent(rig.cp, snapshot('rep-three', sha(FIRST)), { verifyMs: 300 });
    expect(await edge.waitForLog('reputation.failed')).toMatchObject({ sha256: sha(FIRST) });
    expect(await statusFrom(edge, '127.0.0.2')).toBe(200);
    // The control plane serving another list than the one named changes nothing.
    rig.cp.setAbuseIPs(SECOND);
    expect(await statusFrom(edge, '127.0.0.3')).toBe(200);
    // A file with the named hash that is not a list is refused.
    const junk = Buffer.from('not a list');
    rig.cp.setAbuseIPs(junk);
    rig.cp.setSnapshot(snapshot('rep-junk', sha(junk)));
    expect(await edge.waitForLog('reputation.failed', (e) => e.error === 'not an abuse IP file')).toBeDefined();
    expect(await readdir(path.join(edge.stateDir, 'reputation'))).toEqual([]);
    rig.cp.setAbuseIPs(FIRST);
    rig.cp.setSnapshot(snapshot('rep-four', sha(FIRST)));
    await edge.waitForLog('reputation.installed', (e) => e.sha256 === sha(FIRST), 20_000);
    for (let i = 0; i < 80 && (await statusFrom(edge, '127.0.0.2')) !== 403; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await statusFrom(edge, '127.0.0.2')).toBe(403);
  });
});
