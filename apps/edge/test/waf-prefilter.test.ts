import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_REGEX_MATCH_LIMIT } from '../src/nginx/render.js';
import { document, domain, moduleRefs, upstream, wafModule } from './helpers/documents.js';
import { type Edge, LUA_DIR, startEdge } from './helpers/edge.js';
import { type LuaNginx, startLuaNginx } from './helpers/lua-nginx.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { blocked, passed, wafSender } from './helpers/waf-send.js';

// The WAF's cheap checks after the CPU pass, beside the versions they replaced
// (waf-reference/waf_reference.lua), on the same generated material inside an nginx worker:
// - the prefilter split in two patterns (special bytes; words after a boundary) answers exactly
//   what the one alternation answered, for values and for whole query strings / forms, but for
//   the shell-wildcard path segments ("/???/c?t") it finds since;
// - the named-entity pass behind one PCRE search decodes exactly what the class search let through;
// - base64 with its PCRE pre-check for long values decodes exactly the same values;
// - the shell-quoting test with plain searches and PCRE first answers the same;
// - the rules' literal guards found by one Aho-Corasick scan (rampart.waf_guard) are those the
//   plain searches one by one found, for every guard; so are the rules of a list that the strings
//   the scan found mark (rules_marked, which the rule lists run by);
// - the scanner User-Agent rule, its boundary before the names read as a byte, finds the names at
//   the places the rule with a word boundary on each side found them;
// - the session-fixation names and the redirect parameter names, each found in a query string or
//   form by two patterns (at the start; after a separator) where one found them;
// - the pattern that says whether a clean query or form may hold a redirect parameter finds every
//   name rampart.waf_redirect's is_name() accepts;
// - the class patterns rewritten as plain searches (file-name headers, header separators, line
//   breaks, NULs, a part's last line break, GraphQL and base64url candidates, obj["name"], the
//   Spring expression check's "(") answer what the patterns did; so do a header value's separators
//   read as spaces by PCRE, the PHP check's quoted fragments joined by "." asked from the first quote
//   once a dot follows, and the XML body's gmatches tried only where their first bytes are; so does
//   the superglobal argument-name check behind its first byte.
// Then through a real edge: a long form (past the 4 KB a clean form was once limited to) whose
// arguments are all clean but one still has that one read: a redirect parameter, a base64 payload,
// an injection near its end; and the same form without it passes. The material and the comparisons
// are in waf-reference/waf_prefilter_check.lua.

const REFERENCE_DIR = path.resolve(import.meta.dirname, 'waf-reference');

let lua: LuaNginx;
let report: {
  cases: number;
  long: number;
  prefilter_hits: number;
  args_hits: number;
  html_changed: number;
  base64_decoded: number;
  shell: number;
  names: number;
  guards: number;
  wildcards: number;
  scanners: number;
  sessions: number;
  plain: Record<string, number>;
  diffs: string[] | Record<string, never>;
};

beforeAll(async () => {
  lua = await startLuaNginx('waf-prefilter', {
    http: `  lua_package_path '${LUA_DIR}/?.lua;${REFERENCE_DIR}/?.lua;/usr/share/lua/5.1/?.lua;;';
  lua_regex_match_limit ${EDGE_REGEX_MATCH_LIMIT};
  init_by_lua_block { WAF_PREFILTER_TEST = require "waf_prefilter_check" require "rampart.waf_inspect" require "waf_reference" }`,
    server: `    location / { content_by_lua_block { ngx.say(require("cjson").encode(WAF_PREFILTER_TEST())) } }`,
  });
  const res = await fetch(`http://127.0.0.1:${lua.port}/`);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${res.status} ${text} ${await lua.errorLog()}`);
  report = JSON.parse(text);
}, 120_000);

afterAll(async () => {
  await lua?.stop();
});

describe('the cheap checks after the CPU pass, beside the ones they replaced', () => {
  it('answer the same on every generated value', () => {
    process.stderr.write(
      `waf-prefilter: ${report.cases} values, ${report.prefilter_hits} prefilter hits, ${report.args_hits} args hits, ` +
        `${report.html_changed} changed by entities, ${report.base64_decoded} base64, ${report.shell} shell-quoted, ` +
        `${report.guards} guards held, ${report.scanners} scanners, ${report.long} long; plain ${JSON.stringify(report.plain)}\n`,
    );
    // (cjson writes an empty list as {})
    expect(Object.values(report.diffs)).toEqual([]);
    // the material exercises both answers of each check
    expect(report.prefilter_hits).toBeGreaterThan(1000);
    expect(report.cases - report.prefilter_hits).toBeGreaterThan(1000);
    expect(report.args_hits).toBeGreaterThan(1000);
    expect(report.html_changed).toBeGreaterThan(50);
    expect(report.base64_decoded).toBeGreaterThan(50);
    expect(report.shell).toBeGreaterThan(100);
    expect(report.names).toBeGreaterThan(400);
    expect(report.guards).toBeGreaterThan(10000);
    expect(report.wildcards).toBeGreaterThan(100);
    expect(report.scanners).toBeGreaterThan(300);
    expect(report.sessions).toBeGreaterThan(20);
    // each plain-search rewrite met values where the search it replaced found something
    for (const [name, n] of Object.entries(report.plain)) expect([name, n > 50]).toEqual([name, true]);
    expect(Object.keys(report.plain).length).toBe(21);
    // and each short value again inside a long one, at its start and at its end
    expect(report.long).toBeGreaterThan(100000);
  });
});

describe('a long clean form read whole', () => {
  let edge: Edge;
  let origin: Origin;
  const HOST = 'longform.waf.example';
  const sender = wafSender(() => edge, HOST);

  beforeAll(async () => {
    origin = await startOrigin('origin');
    edge = await startEdge();
    await edge.push(
      document(
        'waf-prefilter-1',
        [domain(1, HOST, [upstream(origin.port)], { modules: moduleRefs({ waf: 1 }) })],
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

  // ~60 KB of ordinary fields (no byte or word the prefilter looks for), then `last`
  const form = (last: string) => {
    const fields: string[] = [];
    for (let i = 0; i < 2000; i++) fields.push(`field_${i}=some+ordinary+text+value+${i}`);
    return `${fields.join('&')}&${last}`;
  };
  const post = (body: string) =>
    sender.send({
      path: '/submit',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });

  it('blocks the one argument that needs reading: a redirect, base64, an injection', async () => {
    const got: Record<string, boolean> = {};
    for (const [label, last] of [
      ['redirect parameter', 'next=%2F%2Fevil.example'],
      ['redirect parameter in brackets', 'user%5Breturn_url%5D=%2F%2Fevil.example'],
      ['base64 markup', `comment=${encodeURIComponent(Buffer.from('<script>alert(1)</script>').toString('base64'))}`],
      ['sql injection', `q=${encodeURIComponent("1' OR '1'='1")}`],
    ] as const) {
      got[label] = blocked(await post(form(last)));
    }
    // a query string past 4 KB, read whole the same way
    const query = Array.from({ length: 120 }, (_, i) => `field_${i}=some+ordinary+text+${i}`).join('&');
    got['long query, redirect parameter'] = blocked(
      await sender.send({ path: `/submit?${query}&next=%2F%2Fevil.example`, method: 'GET', headers: {} }),
    );
    got['long query, nothing'] = blocked(
      await sender.send({ path: `/submit?${query}&next=%2Fhome`, method: 'GET', headers: {} }),
    );
    expect(got).toEqual({
      'redirect parameter': true,
      'redirect parameter in brackets': true,
      'base64 markup': true,
      'sql injection': true,
      'long query, redirect parameter': true,
      'long query, nothing': false,
    });
  });

  it('lets the same form through without it', async () => {
    expect(passed(await post(form('next=%2Faccount%2Fsettings')))).toBe(true);
    expect(passed(await post(form('comment=Thanks+for+the+quick+delivery')))).toBe(true);
    expect(passed(await post(form('last=the+end')))).toBe(true);
  });
});
