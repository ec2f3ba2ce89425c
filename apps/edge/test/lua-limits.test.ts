import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ACL_ACTIONS,
  ACL_CONDITIONS_MAX,
  ACL_FREQUENCY_COUNT_MAX,
  ACL_FREQUENCY_OPERATORS,
  ACL_FREQUENCY_SECONDS_MAX,
  ACL_METHODS,
  ACL_RULES_PER_MODULE,
  ACL_STRING_FIELDS,
  ACL_STRING_OPERATORS,
  ACL_VALUE_MAX,
  ACL_VALUE_RE,
  ACL_VALUES_MAX,
  BLOCK_SECONDS_MAX,
  CORS_METHODS,
  DOMAIN_ACCESS_RULES_MAX,
  EDGE_BLOCK_ACTIONS,
  EDGE_CHALLENGES,
  EDGE_HEADER_ACTIONS,
  EDGE_RULE_ACTIONS,
  FIREWALL_LIST_RULES_PER_SITE,
  FIREWALL_METHODS,
  FIREWALL_URL_MAX,
  FIREWALL_URL_RE,
  FREQUENCY_SECONDS_MAX,
  FREQUENCY_TIMES_MAX,
  GEO_COUNTRY_ID_RE,
  GEO_RULE_REGIONS_MAX,
  HEADER_NAME_MAX,
  HEADER_NAME_RE,
  MAX_IPS,
  REFERER_HOST_MAX,
  REFERER_HOST_RE,
  REFERER_HOSTS_MAX,
  REFERER_MODES,
  SECOND_BURST_MAX,
  SECOND_RATE_MAX,
  USER_AGENT_REGEX_MAX,
  USER_AGENT_REGEX_RE,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LUA_LIMITS_FILE, renderLuaLimits } from '../src/nginx/lua-limits.js';
import { SYSTEM_LUA_CPATH, SYSTEM_LUA_PATH } from '../src/nginx/render.js';
import { LUA_DIR } from './helpers/edge.js';
import { type LuaNginx, startLuaNginx } from './helpers/lua-nginx.js';

// rampart.contract_limits is written from the contract (scripts/lua-limits.mts). The checked-in file
// must be what the contract gives today, and inside a real nginx worker it must load, hold the
// contract's values, and its patterns must accept and refuse what the contract's do.

/** Values each pattern is tried on: some the contract accepts, some it refuses. */
const SAMPLES: Record<string, { re: RegExp; values: string[] }> = {
  FIREWALL_URL_RE: {
    re: FIREWALL_URL_RE,
    values: ['.*', '^https://www\\.example\\.com:1234/a[0-9]{2}\\?x=#y', '/a b', '/a"', 'x\n', '/ok\n', '[]{}|^$'],
  },
  USER_AGENT_REGEX_RE: {
    re: USER_AGENT_REGEX_RE,
    values: ['curl/8.5.0', 'Mozilla 5.0 (X11)', 'tab\there', 'é', 'a\n'],
  },
  GEO_COUNTRY_ID_RE: { re: GEO_COUNTRY_ID_RE, values: ['CN', 'cn', 'USA', 'U', 'DE\n'] },
  HEADER_NAME_RE: {
    re: HEADER_NAME_RE,
    values: ['x-scanner', 'X-Api-Key', 'a', 'x_y', 'x y', '', 'x'.repeat(64), 'x'.repeat(65), 'x-a\n'],
  },
  REFERER_HOST_RE: {
    re: REFERER_HOST_RE,
    values: ['example.com', '*.example.com', 'localhost', 'Example.com', '-a.example', 'a..b', 'a.b\n', '*.*.a.b'],
  },
  ACL_VALUE_RE: { re: ACL_VALUE_RE, values: ['', '/admin', 'Mozilla 5.0 (X11)', 'tab\there', 'é', 'a\n'] },
};

let lua: LuaNginx;

beforeAll(async () => {
  lua = await startLuaNginx('lua-limits', {
    http: `  lua_package_path '${LUA_DIR}/?.lua;${SYSTEM_LUA_PATH};;';
  lua_package_cpath '${SYSTEM_LUA_CPATH};;';
  init_by_lua_block { require "rampart.contract_limits" }`,
    server: `
    location = /limits {
      content_by_lua_block {
        local cjson = require "cjson"
        local limits = require "rampart.contract_limits"
        ngx.req.read_body()
        local args = cjson.decode(ngx.req.get_body_data())
        local matched = {}
        for name, values in pairs(args) do
          matched[name] = {}
          for i, v in ipairs(values) do
            local from, _, err = ngx.re.find(v, limits[name], "jo")
            if err then ngx.status = 500; ngx.say(err); return end
            matched[name][i] = from ~= nil
          end
        end
        ngx.say(cjson.encode({ limits = limits, matched = matched }))
      }
    }`,
  });
});

afterAll(async () => {
  await lua?.stop();
});

const set = (items: readonly string[]) => Object.fromEntries(items.map((item) => [item, true]));

describe('rampart.contract_limits, the Lua copy of the contract the checks read', () => {
  it('is the file scripts/lua-limits.mts writes from the contract today', async () => {
    const checkedIn = await readFile(path.join(LUA_DIR, LUA_LIMITS_FILE), 'utf8');
    expect(checkedIn).toBe(renderLuaLimits());
  });

  it("loads in an nginx worker with the contract's values, and its patterns judge as the contract's", async () => {
    const body = Object.fromEntries(Object.entries(SAMPLES).map(([name, { values }]) => [name, values]));
    const res = await fetch(`http://127.0.0.1:${lua.port}/limits`, {
      method: 'POST',
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status, await lua.errorLog()).toBe(200);
    const { limits, matched } = (await res.json()) as {
      limits: Record<string, unknown>;
      matched: Record<string, boolean[]>;
    };
    expect(limits).toMatchObject({
      FIREWALL_LIST_RULES_PER_SITE,
      MAX_IPS,
      FIREWALL_URL_MAX,
      USER_AGENT_REGEX_MAX,
      HEADER_NAME_MAX,
      FREQUENCY_SECONDS_MAX,
      FREQUENCY_TIMES_MAX,
      SECOND_RATE_MAX,
      SECOND_BURST_MAX,
      BLOCK_SECONDS_MAX,
      GEO_RULE_REGIONS_MAX,
      DOMAIN_ACCESS_RULES_MAX,
      REFERER_HOSTS_MAX,
      REFERER_HOST_MAX,
      FIREWALL_METHODS: set(FIREWALL_METHODS.map((m) => m.toUpperCase())),
      EDGE_RULE_ACTIONS: set(EDGE_RULE_ACTIONS),
      EDGE_BLOCK_ACTIONS: set(EDGE_BLOCK_ACTIONS),
      EDGE_CHALLENGES: set(EDGE_CHALLENGES),
      EDGE_HEADER_ACTIONS: set(EDGE_HEADER_ACTIONS),
      REFERER_MODES: set(REFERER_MODES),
      ACL_RULES_PER_MODULE,
      ACL_CONDITIONS_MAX,
      ACL_VALUES_MAX,
      ACL_VALUE_MAX,
      ACL_FREQUENCY_COUNT_MAX,
      ACL_FREQUENCY_SECONDS_MAX,
      ACL_METHODS: set(ACL_METHODS),
      ACL_ACTIONS: set(ACL_ACTIONS),
      ACL_STRING_FIELDS: set(ACL_STRING_FIELDS),
      ACL_STRING_OPERATORS: set(ACL_STRING_OPERATORS),
      ACL_FREQUENCY_OPERATORS: set(ACL_FREQUENCY_OPERATORS),
      CORS_METHODS: set(CORS_METHODS),
    });
    for (const [name, { re, values }] of Object.entries(SAMPLES)) {
      const expected = values.map((v) => re.test(v));
      // Each pattern is tried on values it takes and values it refuses.
      expect(new Set(expected), name).toEqual(new Set([true, false]));
      expect(matched[name], name).toEqual(expected);
    }
  });
});
