import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, moduleRefs, upstream, wafModule } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { sendFrom } from './helpers/send.js';

// A WAF pattern that fails on a value (PCRE's backtracking bound) must not read as "no match": the
// request is then not fully inspected and the module's fail mode decides (rampart.waf_re). The
// WAF's own patterns do not reach the edge's bound on 64 KB of hostile input (waf-patterns.test.ts),
// so the failure is injected: the test's nginx master replaces ngx.re.find, before the modules
// load, with one that fails as PCRE does ("pcre_exec() failed: -8") on any subject holding a
// marker, and answers as ngx.re.find everywhere else. A module that fails closed blocks such a
// request (rule 113002); one that fails open passes it; both say so in the error log; a request
// without the marker passes both. The same for ngx.re.match and ngx.re.gmatch (rampart.waf_re
// wraps them too).

const waf = (id: number, failMode: 'open' | 'closed') => wafModule(id, { failMode });
const refs = (id: number) => moduleRefs({ waf: id });

const MARKER = 'zzpcrefailzz';
// Markers on which only ngx.re.match, or only ngx.re.gmatch, fails (the WAF calls them too: an
// attribute after a quote, GraphQL aliases): every other pattern answers on those values.
const MATCH_MARKER = 'zzmatchfailzz';
const GMATCH_MARKER = 'zzgmatchfailzz';
let edge: Edge;
let origin: Origin;

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge(
    {},
    {
      initLua:
        `local real = ngx.re.find; ngx.re.find = function(s, re, o, ...) if type(s) == "string" and s:find("${MARKER}", 1, true) then return nil, nil, "pcre_exec() failed: -8" end return real(s, re, o, ...) end; ` +
        `local real_m = ngx.re.match; ngx.re.match = function(s, re, o, ...) if type(s) == "string" and s:find("${MATCH_MARKER}", 1, true) then return nil, "pcre_exec() failed: -8" end return real_m(s, re, o, ...) end; ` +
        `local real_g = ngx.re.gmatch; ngx.re.gmatch = function(s, re, o) if type(s) == "string" and s:find("${GMATCH_MARKER}", 1, true) then local done = false return function() if done then return nil end done = true return nil, "pcre_exec() failed: -8" end end return real_g(s, re, o) end;`,
    },
  );
  await edge.push(
    document(
      'waf-re-1',
      [
        domain(1, 'closed.waf-re.example', [upstream(origin.port)], { modules: refs(1) }),
        domain(2, 'open.waf-re.example', [upstream(origin.port)], { modules: refs(2) }),
      ],
      [],
      [],
      { modules: [waf(1, 'closed'), waf(2, 'open')] },
    ),
  );
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

const get = (host: string, path: string) => sendFrom('127.0.0.1', edge.httpPort, host, { path });

describe('WAF: a pattern that fails is not a clean value', () => {
  // A value the WAF's prefilter looks at (quotes and brackets), holding the marker.
  const hard = `/app?q=${encodeURIComponent(`it's (${MARKER}) <b>`)}`;

  it('fail closed: blocked with rule 113002', async () => {
    const reply = await get('closed.waf-re.example', hard);
    expect(reply !== 'closed' && reply.status).toBe(403);
    const log = await edge.errorLog();
    expect(log).toMatch(
      /rampart waf: a pattern failed on this request \(pcre_exec\(\) failed: -8\): not fully inspected/,
    );
    let line: string | undefined;
    for (let i = 0; i < 40 && !line; i++) {
      line = (await edge.accessLog()).split('\n').find((l) => l.includes('"fw_rule":"113002"'));
      if (!line) await new Promise((r) => setTimeout(r, 100));
    }
    expect(line).toBeDefined();
  });

  it('fail open: passed to the origin', async () => {
    const reply = await get('open.waf-re.example', hard);
    expect(reply !== 'closed' && servedBy(reply.body)).toBe('origin');
  });

  // (each value reaches the call on its own: "on...=" for the attribute reading, aliases with a
  // call and a brace for the GraphQL reading)
  for (const [call, value] of [
    ['ngx.re.match', `x on${MATCH_MARKER}=1`],
    ['ngx.re.gmatch', `{ ${GMATCH_MARKER} a: f(1) }`],
  ] as const) {
    it(`a failure of ${call} too: blocked when failing closed, passed when failing open`, async () => {
      const path = `/app?q=${encodeURIComponent(value)}`;
      const closed = await get('closed.waf-re.example', path);
      expect(closed !== 'closed' && closed.status).toBe(403);
      const open = await get('open.waf-re.example', path);
      expect(open !== 'closed' && servedBy(open.body)).toBe('origin');
    });
  }

  it('a short ordinary request passes both', async () => {
    for (const host of ['closed.waf-re.example', 'open.waf-re.example']) {
      const reply = await get(host, '/app?page=1&sort=name');
      expect(reply !== 'closed' && servedBy(reply.body)).toBe('origin');
    }
  });
});
