import { WAF_GROUPS, wafRuleGroup } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_REGEX_MATCH_LIMIT } from '../src/nginx/render.js';
import { LUA_DIR } from './helpers/edge.js';
import { type LuaNginx, startLuaNginx } from './helpers/lua-nginx.js';

// The WAF's rules as data (rampart.waf_rules) and its tokenizers (rampart.waf_sqli,
// rampart.waf_xss), run inside an nginx worker: every pattern compiles with PCRE JIT, every rule id
// lies in its group's range (WAF_GROUP_RULE_BASE) and is unique, and no pattern or tokenizer runs
// away on pathological input (64 KB of the bytes they look for, repeated): under the edge's own
// lua_regex_match_limit no pattern hits the limit (a pattern that did would not match, so an
// attacker could pad a request past the rule), which is the runaway check; the CPU time is
// reported too, with a bound only a runaway would reach even on a loaded machine.

interface RuleReport {
  id: number;
  group: string;
  error: string | null;
  worstMs: number;
  /** The PCRE error on a pathological input (the match limit), null when every input ran through. */
  limit: string | null;
}
interface Report {
  /** The error of a pattern known to run away, on a short input: the limit is in force. */
  canary: string | null;
  rules: RuleReport[];
  tokenizers: { name: string; worstMs: number }[];
}

let lua: LuaNginx;
let report: Report;

const PATHOLOGICAL = [
  'a',
  ' ',
  '(',
  "'",
  '"',
  '${',
  '/..',
  '<a ',
  '%',
  '\\',
  '{{',
  ';a ',
  "' or ",
  '<a onx=',
  '$x[',
  'union select ',
  '/*',
  '--',
  '${{lower:',
  'java.',
  '=(',
  '|a ',
  '&#',
  ')(',
  '*)(|(uid=',
  "'; this.a",
  'db.a.',
  '//',
  '..;/',
  '\u2024',
  '{"$ne":',
  'a: f(',
  '{__schema ',
];

beforeAll(async () => {
  const inputs = PATHOLOGICAL.map((s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(', ');
  lua = await startLuaNginx('waf-patterns', {
    // The modules are loaded in the master, as the edge does: the workers run as nobody and need
    // not read the repository (a checkout under a 0700 directory, as CI's, they cannot).
    http: `  lua_package_path '${LUA_DIR}/?.lua;/usr/share/lua/5.1/?.lua;;';
  lua_regex_match_limit ${EDGE_REGEX_MATCH_LIMIT};
  init_by_lua_block {
    require "rampart.waf_rules"; require "rampart.waf_sqli"; require "rampart.waf_xss"
    require "rampart.waf_inject"; require "rampart.waf_redirect"; require "rampart.waf_path"; require "rampart.waf_graphql"
    require "rampart.waf_session"; require "rampart.waf_cve"
  }`,
    server: `
    location / {
      content_by_lua_block {
        local cjson = require "cjson.safe"
        local rules = require "rampart.waf_rules"
        local sqli = require "rampart.waf_sqli"
        local xss = require "rampart.waf_xss"
        local inject = require "rampart.waf_inject"
        local redirect = require "rampart.waf_redirect"
        local waf_path = require "rampart.waf_path"
        local graphql = require "rampart.waf_graphql"
        local session = require "rampart.waf_session"
        local cve = require "rampart.waf_cve"
        local units = { ${inputs} }
        local inputs = {}
        for _, u in ipairs(units) do inputs[#inputs + 1] = string.rep(u, math.floor(65536 / #u)) end
        -- the worker's CPU time (os.clock), not the wall clock: a loaded machine does not lengthen it
        local function timed(f)
          local t0 = os.clock()
          f()
          return (os.clock() - t0) * 1000
        end
        local out = { rules = {}, tokenizers = {} }
        local function check(r, group)
          local _, _, err = ngx.re.find("", r.re, "jo")
          local worst, limit = 0, nil
          if not err then
            for _, s in ipairs(inputs) do
              local ms = timed(function()
                local _, _, failed = ngx.re.find(s, r.re, "jo")
                limit = limit or failed
              end)
              if ms > worst then worst = ms end
            end
          end
          out.rules[#out.rules + 1] = {
            id = r.id, group = group, error = err or cjson.null, worstMs = worst, limit = limit or cjson.null,
          }
        end
        for group, list in pairs(rules.RULES) do
          for _, r in ipairs(list) do check(r, group) end
        end
        for _, list in pairs(rules.SPECIAL) do
          for _, r in ipairs(list) do check(r, r.group) end
        end
        for _, list in ipairs({ inject.PATTERNS, redirect.PATTERNS, graphql.PATTERNS, session.PATTERNS, cve.PATTERNS }) do
          for _, r in ipairs(list) do check(r, r.group) end
        end
        -- The check can fail: a pattern known to run away reaches the limit on the same terms.
        local _, _, canary = ngx.re.find(string.rep("a", 64) .. "b", [[^(a|a)*$]], "jo")
        out.canary = canary or cjson.null
        local nop = function() end
        local readers = { sqli = sqli.check, xss = xss.check, php = rules.php_calls, nosql = inject.nosql, ldap = inject.ldap,
          redirect = function(s, hit) redirect.check(s, hit, s) end, path = function(s) waf_path.normalise(s) end, graphql = graphql.check }
        for name, f in pairs(readers) do
          local worst = 0
          for _, s in ipairs(inputs) do
            -- a 4 KB window, as rampart.waf reads long values
            local ms = timed(function() f(string.sub(s, 1, 4096), nop) end)
            if ms > worst then worst = ms end
          end
          out.tokenizers[#out.tokenizers + 1] = { name = name, worstMs = worst }
        end
        ngx.say(cjson.encode(out))
      }
    }`,
  });
  const res = await fetch(`http://127.0.0.1:${lua.port}/`);
  if (!res.ok) throw new Error(`the report failed (${res.status}): ${await res.text()}\n${await lua.errorLog()}`);
  report = (await res.json()) as Report;
}, 120_000);

afterAll(async () => {
  await lua?.stop();
});

describe('WAF rules', () => {
  it('every pattern compiles with PCRE JIT', () => {
    expect(report.rules.length).toBeGreaterThan(40);
    expect(report.rules.filter((r) => r.error !== null)).toEqual([]);
  });

  it("every rule id is unique and lies in its group's range", () => {
    const ids = report.rules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of report.rules) {
      expect(WAF_GROUPS).toContain(r.group);
      expect(wafRuleGroup(r.id)).toBe(r.group);
    }
  });

  it("no pattern runs away on 64 KB of pathological input: none reaches the edge's match limit", () => {
    expect(report.canary).toBe('pcre_exec() failed: -8');
    expect(report.rules.filter((r) => r.limit !== null).map((r) => `${r.id}: ${r.limit}`)).toEqual([]);
    // Linear patterns take a few ms on 64 KB; a runaway one, seconds.
    const slow = report.rules.filter((r) => r.worstMs > 1000).map((r) => `${r.id}: ${r.worstMs} ms`);
    expect(slow).toEqual([]);
  });

  it('the SQL and HTML tokenizers, the PHP call, NoSQL, LDAP, redirect and GraphQL readers and the path normaliser read a pathological 4 KB window within a few milliseconds', () => {
    expect(report.tokenizers.map((t) => t.name).sort()).toEqual([
      'graphql',
      'ldap',
      'nosql',
      'path',
      'php',
      'redirect',
      'sqli',
      'xss',
    ]);
    for (const t of report.tokenizers) expect(t.worstMs).toBeLessThan(20);
  });
});
