import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, moduleRefs, upstream, wafModule } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { sendFrom } from './helpers/send.js';

// The WAF's time budget reads the worker's CPU clock (os.clock, a system call) only where it
// checks the budget: after 8 KB or 64 values of inspection, between the windows of a long value.
// A request smaller than that never reads it; a larger one reads it once, when its budget starts,
// and then again only once the monotonic clock (no system call) says the budget may be spent: a
// worker's one thread cannot have used more CPU time than the wall time that passed.
// The test's nginx master (one worker) replaces os.clock, before the modules load, with one that
// counts its calls; a location answers the count.

let edge: Edge;
let origin: Origin;

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge(
    { workerProcesses: 1 },
    {
      initLua:
        'local real = os.clock; RAMPART_CLOCK_READS = 0; os.clock = function() RAMPART_CLOCK_READS = RAMPART_CLOCK_READS + 1; return real() end;',
      serverSnippet:
        'location = /clock-reads { access_log off; content_by_lua_block { ngx.print(RAMPART_CLOCK_READS) } }',
    },
  );
  await edge.push(
    document(
      'waf-clock-1',
      [domain(1, 'waf-clock.example', [upstream(origin.port)], { modules: moduleRefs({ waf: 1 }) })],
      [],
      [],
      {
        modules: [wafModule(1)],
      },
    ),
  );
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

const HOST = 'waf-clock.example';

async function reads(): Promise<number> {
  const reply = await sendFrom('127.0.0.1', edge.httpPort, HOST, { path: '/clock-reads' });
  if (reply === 'closed' || reply.status !== 200) throw new Error('the count location did not answer');
  return Number(reply.body);
}

/** The CPU clock's reads while the edge answers `path` (and that it passed the WAF). */
async function readsFor(path: string): Promise<number> {
  const before = await reads();
  const reply = await sendFrom('127.0.0.1', edge.httpPort, HOST, { path });
  expect(reply !== 'closed' && servedBy(reply.body)).toBe('origin');
  return (await reads()) - before;
}

describe('WAF: the time budget reads the CPU clock only where it checks it', () => {
  it('a request under one check interval never reads it', async () => {
    expect(await readsFor('/')).toBe(0);
    expect(await readsFor('/shop/item?id=42&q=blue+shoes')).toBe(0);
    // values the prefilter looks at (quotes, brackets): inspected, still under 64 of them
    expect(await readsFor(`/search?${Array.from({ length: 10 }, (_, i) => `a${i}=it's+(${i})`).join('&')}`)).toBe(0);
  });

  it('a request past one check interval reads it once, when its budget starts', async () => {
    // (150 values: two checks; well under the budget's 8 ms of wall time)
    const args = Array.from({ length: 150 }, (_, i) => `a${i}=it's+(${i})`).join('&');
    expect(await readsFor(`/search?${args}`)).toBe(1);
  });
});
