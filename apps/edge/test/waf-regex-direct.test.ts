import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LUA_DIR } from './helpers/edge.js';
import { type LuaNginx, startLuaNginx } from './helpers/lua-nginx.js';

// rampart.waf_re.find runs the WAF's compiled patterns directly (the C function ngx.re.find uses,
// the compiled pattern from resty.core's own cache), without ngx.re.find's per-call work. Inside a
// real nginx worker, with a low lua_regex_match_limit so that PCRE really gives up on one subject,
// its answers are ngx.re.find's on every case: the match's bounds, no match, an empty match, and a
// failure, which is also remembered for the request (waf_re.failure) until reset.

type Row = { case: string; ngx: unknown[]; waf: unknown[]; failure: string | null };
let lua: LuaNginx;
let report: { rows: Row[]; direct: number; after_reset: string | null };

const LUA = `
local waf_re = require "rampart.waf_re"
local cjson = require "cjson"
local cases = {
  { "match", "abc-def", [[c-d]], "jo" },
  { "caseless", "xxABCxx", [[abc]], "joi" },
  { "no match", "hello world", [=[[<>'"]]=], "jo" },
  { "empty match", "bbb", [[a*]], "jo" },
  { "anchored end", "token==", [=[^[A-Za-z0-9+/_-]{4,}={1,2}\\z]=], "jo" },
  { "number subject", 12345, [[3]], "jo" },
  { "backtracking past the limit", string.rep("a", 28) .. "!", [[^(?:a+)+$]], "jo" },
}
local rows = {}
for _, c in ipairs(cases) do
  waf_re.reset()
  local a1, a2, a3 = ngx.re.find(c[2], c[3], c[4])
  local b1, b2, b3 = waf_re.find(c[2], c[3], c[4])
  rows[#rows + 1] = { case = c[1], ngx = { a1 or cjson.null, a2 or cjson.null, a3 or cjson.null },
    waf = { b1 or cjson.null, b2 or cjson.null, b3 or cjson.null }, failure = waf_re.failure() or cjson.null }
end
waf_re.reset()
ngx.say(cjson.encode({ rows = rows, direct = (waf_re.direct()), after_reset = waf_re.failure() or cjson.null }))
`;

beforeAll(async () => {
  lua = await startLuaNginx('waf-regex-direct', {
    http: `  lua_package_path '${LUA_DIR}/?.lua;/usr/share/lua/5.1/?.lua;;';
  lua_regex_match_limit 1000;`,
    server: `    location / { content_by_lua_block { ${LUA} } }`,
  });
  const res = await fetch(`http://127.0.0.1:${lua.port}/`);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${res.status} ${text} ${await lua.errorLog()}`);
  report = JSON.parse(text);
}, 60_000);

afterAll(async () => {
  await lua?.stop();
});

describe('WAF: patterns run directly answer as ngx.re.find', () => {
  it('runs them directly (not through ngx.re.find)', () => {
    expect(report.direct).toBeGreaterThanOrEqual(report.rows.length - 1);
  });

  it('gives ngx.re.find answers on every case', () => {
    for (const row of report.rows) expect(row.waf, row.case).toEqual(row.ngx);
    const byCase = Object.fromEntries(report.rows.map((r) => [r.case, r]));
    expect(byCase.match?.waf).toEqual([3, 5, null]);
    expect(byCase['empty match']?.waf).toEqual([1, 0, null]);
    expect(byCase['no match']?.waf).toEqual([null, null, null]);
  });

  it('remembers a failure for the request, and forgets it on reset', () => {
    const failed = report.rows.find((r) => r.case === 'backtracking past the limit');
    expect(failed?.waf[2]).toMatch(/^pcre_exec\(\) failed: -\d+$/);
    expect(failed?.failure).toBe(failed?.waf[2]);
    for (const row of report.rows.filter((r) => r !== failed)) expect(row.failure, row.case).toBeNull();
    expect(report.after_reset).toBeNull();
  });
});
