import { type EdgeFirewall, ipListRanges } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { request } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';

// ACME HTTP-01 challenges as the control plane pushes them (data plane `acmeChallenges`, issued
// by apps/server auto-certificates.job.ts) through a real nginx: the node answers the key
// authorization for its host and token before the firewall and the forceSSL redirect, for a host
// it does not serve too, and stops once a push leaves the challenge out — pushes, never a reload.

const TOKEN = 'tok_Abcdefghijklmnopqrstuvwxyz0123456789-_';
const THUMBPRINT = 'thumbprintABCDEFGHIJKLMNOPQRSTUVWXYZ01234';
const KEY_AUTH = `${TOKEN}.${THUMBPRINT}`;
const NEW_TOKEN = 'newtokenNEWTOKEN0123456789';
const NEW_KEY_AUTH = `${NEW_TOKEN}.${THUMBPRINT}`;

// Denies every client of the site.
const BLOCK_ALL: EdgeFirewall = {
  id: 1,
  whitelist: [],
  blacklist: [
    {
      id: 11,
      url: '.*',
      methods: ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS'],
      ...ipListRanges(['0.0.0.0/0']),
      action: 'deny',
    },
  ],
  userAgents: [],
  headers: [],
  intervals: [],
  rates: [],
  antiCC: [],
};

let edge: Edge;
let origin: Origin;

function plane(version: string, challenges: { host: string; token: string; keyAuthorization: string }[]) {
  return {
    ...document(
      version,
      [
        domain(1, 'blocked.example.com', [upstream(origin.port)], { firewallId: 1 }),
        domain(2, 'secure.example.com', [upstream(origin.port)], { forceSSL: true }),
      ],
      [],
      [],
      { firewalls: [BLOCK_ALL] },
    ),
    ...(challenges.length > 0 ? { acmeChallenges: challenges } : {}),
  };
}

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('ACME HTTP-01 challenges', () => {
  it('answers the key authorization before the firewall and the forceSSL redirect, for unserved hosts too', async () => {
    await edge.push(
      plane('acme-1', [
        { host: 'blocked.example.com', token: TOKEN, keyAuthorization: KEY_AUTH },
        { host: 'secure.example.com', token: TOKEN, keyAuthorization: KEY_AUTH },
        { host: 'new.example.com', token: NEW_TOKEN, keyAuthorization: NEW_KEY_AUTH },
      ]),
    );
    const seen = origin.seen.length;
    for (const host of ['blocked.example.com', 'secure.example.com']) {
      const answer = await request(edge.httpPort, host, `/.well-known/acme-challenge/${TOKEN}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(KEY_AUTH);
      expect(answer.headers['content-type']).toBe('text/plain');
    }
    const unserved = await request(edge.httpPort, 'new.example.com', `/.well-known/acme-challenge/${NEW_TOKEN}`);
    expect([unserved.status, unserved.body]).toEqual([200, NEW_KEY_AUTH]);
    expect(origin.seen.length).toBe(seen);

    // Any other path, another token or another host's token gets what the host gets otherwise.
    expect((await request(edge.httpPort, 'blocked.example.com', '/')).status).toBe(403);
    expect(
      (await request(edge.httpPort, 'blocked.example.com', '/.well-known/acme-challenge/other-token-0123456')).status,
    ).toBe(403);
    expect(
      (await request(edge.httpPort, 'secure.example.com', `/.well-known/acme-challenge/${NEW_TOKEN}`)).status,
    ).toBe(301);
    expect((await request(edge.httpPort, 'new.example.com', `/.well-known/acme-challenge/${TOKEN}`)).status).toBe(404);
  });

  it('stops answering once a push leaves the challenge out, without a reload', async () => {
    const workers = await edge.nginx.workerPids();
    await edge.push(plane('acme-2', []));
    expect((await request(edge.httpPort, 'blocked.example.com', `/.well-known/acme-challenge/${TOKEN}`)).status).toBe(
      403,
    );
    expect((await request(edge.httpPort, 'secure.example.com', `/.well-known/acme-challenge/${TOKEN}`)).status).toBe(
      301,
    );
    expect((await request(edge.httpPort, 'new.example.com', `/.well-known/acme-challenge/${NEW_TOKEN}`)).status).toBe(
      404,
    );
    expect(await edge.nginx.workerPids()).toEqual(workers);
  });

  it('refuses a document with a malformed challenge, naming the field', async () => {
    const bad = plane('acme-3', [{ host: 'blocked.example.com', token: 'short', keyAuthorization: KEY_AUTH }]);
    const answer = await edge.putRaw(JSON.stringify(bad));
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('acmeChallenges[0].token');
  });
});
