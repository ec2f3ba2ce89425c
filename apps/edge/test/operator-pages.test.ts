import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { freePort } from './helpers/net.js';
import { type RawAnswer, rawRequest } from './helpers/raw.js';

// The operator's default error pages (data plane `errorPages`, routes/system-settings.ts): the edge
// serves them verbatim for the statuses it answers itself when the request's site has no page of
// its own for the status; the site's own page wins; without them the edge's own page is back.

const OPERATOR_502 = '<!DOCTYPE html><title>Operator</title><h1>Our origin is resting</h1>';
const OPERATOR_404 = '<h1>Not one of our sites</h1>';
const SITE_502 = '<h1>The site itself says: back soon</h1>';

let edge: Edge;
let down: number;

function get(host: string): Promise<RawAnswer> {
  return rawRequest(edge.httpPort, [`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`]);
}

function push(version: string, errorPages?: { status: number; body: string }[]) {
  const dead = [upstream(down)];
  return edge.push(
    document(
      version,
      [domain(1, 'plain.example.com', dead), domain(2, 'own.example.com', dead, { settingsId: 20 })],
      [],
      [],
      {
        settings: [{ id: 20, gzip: null, rates: [], language: 'en_US', pages: [{ status: 502, body: SITE_502 }] }],
        ...(errorPages ? { errorPages } : {}),
      },
    ),
  );
}

beforeAll(async () => {
  down = await freePort();
  edge = await startEdge();
  await push('pages-1', [
    { status: 502, body: OPERATOR_502 },
    { status: 404, body: OPERATOR_404 },
  ]);
});

afterAll(async () => {
  await edge?.stop();
});

describe("the operator's default pages", () => {
  it('answers a site without its own page with the operator’s, verbatim as HTML', async () => {
    const answer = await get('plain.example.com');
    expect(answer.status).toBe(502);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.body).toBe(OPERATOR_502);
  });

  it("keeps a site's own page for its status", async () => {
    const answer = await get('own.example.com');
    expect(answer.status).toBe(502);
    expect(answer.body).toBe(SITE_502);
  });

  it('answers an unknown host with the operator’s 404 page', async () => {
    const answer = await get('nobody.example.com');
    expect(answer.status).toBe(404);
    expect(answer.body).toBe(OPERATOR_404);
  });

  it('goes back to the edge’s own pages when the operator has none', async () => {
    await push('pages-2');
    const answer = await get('plain.example.com');
    expect(answer.status).toBe(502);
    expect(answer.body).toContain('<h1>502 Bad gateway</h1>');
    expect((await get('nobody.example.com')).body).toContain('<h1>404 Domain not found</h1>');
  });

  it('refuses a document whose pages are not pages (the Lua check behind the agent’s)', async () => {
    const doc = { ...document('pages-3', []), errorPages: [{ status: 200, body: 'x' }] };
    const refused = await edge.putRaw(JSON.stringify(doc));
    expect(refused.status).toBe(400);
    expect(refused.body.field).toBe('errorPages[0].status');
    const tooLarge = {
      ...document('pages-4', []),
      errorPages: [400, 403, 404, 405, 429].map((status) => ({ status, body: 'x'.repeat(60_000) })),
    };
    const big = await edge.putRaw(JSON.stringify(tooLarge));
    expect(big.status).toBe(400);
    expect(big.body.field).toBe('errorPages');
  });
});
