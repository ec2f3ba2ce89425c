import { WAF_GROUPS, wafRuleGroup } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LUA_DIR } from './helpers/edge.js';
import { type LuaNginx, startLuaNginx } from './helpers/lua-nginx.js';

// The WAF's rules as data (rampart.waf_rules) and its tokenizers (rampart.waf_sqli,
// rampart.waf_xss), run inside an nginx worker: every pattern compiles with PCRE JIT, every rule id
// lies in its group's range (WAF_GROUP_RULE_BASE) and is unique, and no pattern or tokenizer runs
// away on pathological input (64 KB of the bytes they look for, repeated), with the default PCRE
// match limit (the edge's lua_regex_match_limit is lower still).

interface RuleReport {
  id: number;
  group: string;
  error: string | null;
  worstMs: number;
}
interface Report {
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
];

beforeAll(async () => {
  const inputs = PATHOLOGICAL.map((s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(', ');
  lua = await startLuaNginx('waf-patterns', {
    http: `  lua_package_path '${LUA_DIR}/?.lua;/usr/share/lua/5.1/?.lua;;';`,
    server: `
    location / {
      content_by_lua_block {
        local cjson = require "cjson.safe"
        local rules = require "rampart.waf_rules"
        local sqli = require "rampart.waf_sqli"
        local xss = require "rampart.waf_xss"
        local units = { ${inputs} }
        local inputs = {}
        for _, u in ipairs(units) do inputs[#inputs + 1] = string.rep(u, math.floor(65536 / #u)) end
        local function timed(f)
          ngx.update_time()
          local t0 = ngx.now()
          f()
          ngx.update_time()
          return (ngx.now() - t0) * 1000
        end
        local out = { rules = {}, tokenizers = {} }
        local function check(r, group)
          local _, _, err = ngx.re.find("", r.re, "jo")
          local worst = 0
          if not err then
            for _, s in ipairs(inputs) do
              local ms = timed(function() ngx.re.find(s, r.re, "jo") end)
              if ms > worst then worst = ms end
            end
          end
          out.rules[#out.rules + 1] = { id = r.id, group = group, error = err or cjson.null, worstMs = worst }
        end
        for group, list in pairs(rules.RULES) do
          for _, r in ipairs(list) do check(r, group) end
        end
        for _, list in pairs(rules.SPECIAL) do
          for _, r in ipairs(list) do check(r, r.group) end
        end
        local nop = function() end
        for name, f in pairs({ sqli = sqli.check, xss = xss.check, php = rules.php_calls }) do
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

  it('no pattern runs away on 64 KB of pathological input', () => {
    const slow = report.rules.filter((r) => r.worstMs > 50).map((r) => `${r.id}: ${r.worstMs} ms`);
    expect(slow).toEqual([]);
  });

  it('the SQL and HTML tokenizers and the PHP call reader read a pathological 4 KB window within a few milliseconds', () => {
    expect(report.tokenizers.map((t) => t.name).sort()).toEqual(['php', 'sqli', 'xss']);
    for (const t of report.tokenizers) expect(t.worstMs).toBeLessThan(20);
  });
});
