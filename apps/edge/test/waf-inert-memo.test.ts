import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, moduleRefs, upstream, wafModule } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { sendFrom } from './helpers/send.js';

// The WAF remembers, per worker, the values it found inert (nothing the prefilter looks for, no
// base64 inside), and answers them again from that memo. What is inert depends on where the value
// is: in a header "(", ")" and ";" are ordinary (a User-Agent is full of them), in a query, a cookie
// or a body they are what a payload needs. A value remembered from a header must still be read in
// full when it comes in a query, in the same worker (one worker: every request meets the memo).

let edge: Edge;
let origin: Origin;
const HOST = 'waf-memo.example';

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge({ workerProcesses: 1 });
  await edge.push(
    document('waf-memo-1', [domain(1, HOST, [upstream(origin.port)], { modules: moduleRefs({ waf: 1 }) })], [], [], {
      modules: [wafModule(1)],
    }),
  );
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

async function status(path: string, headers: Record<string, string> = {}): Promise<number | 'origin' | 'closed'> {
  const reply = await sendFrom('127.0.0.1', edge.httpPort, HOST, { path, headers });
  if (reply === 'closed') return reply;
  return servedBy(reply.body) === 'origin' ? 'origin' : reply.status;
}

// Payloads whose only special bytes are "(", ")" and ";": inert in a header, attacks in a query.
const VALUES = ['phpinfo()', 'system(id)', 'x;phpinfo();'];

describe('WAF: the memo of inert values', () => {
  for (const value of VALUES) {
    it(`remembers "${value}" as inert in a header and still blocks it in a query`, async () => {
      expect(await status('/', { 'X-Note': value })).toBe('origin');
      // (twice: the second answer comes from the memo)
      expect(await status('/', { 'X-Note': value })).toBe('origin');
      expect(await status(`/?note=${encodeURIComponent(value)}`)).toBe(403);
      expect(await status('/', { 'X-Note': value })).toBe('origin');
    });
  }

  it('answers a remembered inert query value as before', async () => {
    for (let i = 0; i < 3; i++) expect(await status('/?page=welcome-back&lang=en')).toBe('origin');
  });
});
