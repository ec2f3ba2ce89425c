import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as contract from '@rampart/contract';
import { LUA_LIMIT_NUMBERS, LUA_LIMIT_PATTERNS, LUA_LIMIT_SETS } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LUA_LIMITS_FILE, renderLuaLimits } from '../src/nginx/lua-limits.js';
import { SYSTEM_LUA_CPATH, SYSTEM_LUA_PATH } from '../src/nginx/render.js';
import { LUA_DIR } from './helpers/edge.js';
import { type LuaNginx, startLuaNginx } from './helpers/lua-nginx.js';

// rampart.contract_limits is written from the contract (scripts/lua-limits.mts). The checked-in file
// must be what the contract gives today, and inside a real nginx worker it must load, hold the
// contract's values, and its patterns must accept and refuse what the contract's do.

/** Values each of the contract's patterns is tried on: some it accepts, some it refuses. */
const SAMPLES: Record<keyof typeof LUA_LIMIT_PATTERNS, string[]> = {
  FIREWALL_URL_RE: [
    '.*',
    '^https://www\\.example\\.com:1234/a[0-9]{2}\\?x=#y',
    '/a b',
    '/a"',
    'x\n',
    '/ok\n',
    '[]{}|^$',
  ],
  USER_AGENT_REGEX_RE: ['curl/8.5.0', 'Mozilla 5.0 (X11)', 'tab\there', 'é', 'a\n'],
  GEO_COUNTRY_ID_RE: ['CN', 'cn', 'USA', 'U', 'DE\n'],
  HEADER_NAME_RE: ['x-scanner', 'X-Api-Key', 'a', 'x_y', 'x y', '', 'x'.repeat(64), 'x'.repeat(65), 'x-a\n'],
  REFERER_HOST_RE: [
    'example.com',
    '*.example.com',
    'localhost',
    'Example.com',
    '-a.example',
    'a..b',
    'a.b\n',
    '*.*.a.b',
  ],
  ACL_VALUE_RE: ['', '/admin', 'Mozilla 5.0 (X11)', 'tab\there', 'é', 'a\n'],
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

  it("names each value after the contract's constant it is (the firewall's methods in upper case)", () => {
    const exported = contract as unknown as Record<string, unknown>;
    for (const [name, value] of Object.entries({ ...LUA_LIMIT_NUMBERS, ...LUA_LIMIT_PATTERNS })) {
      expect(value, name).toBe(exported[name]);
    }
    for (const [name, items] of Object.entries(LUA_LIMIT_SETS)) {
      const named = exported[name] as readonly string[];
      expect(items, name).toEqual(name === 'FIREWALL_METHODS' ? named.map((m) => m.toUpperCase()) : named);
    }
  });

  it("loads in an nginx worker with the contract's values, and its patterns judge as the contract's", async () => {
    const res = await fetch(`http://127.0.0.1:${lua.port}/limits`, {
      method: 'POST',
      body: JSON.stringify(SAMPLES),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status, await lua.errorLog()).toBe(200);
    const { limits, matched } = (await res.json()) as {
      limits: Record<string, unknown>;
      matched: Record<string, boolean[]>;
    };
    expect(limits).toMatchObject({
      ...LUA_LIMIT_NUMBERS,
      ...Object.fromEntries(Object.entries(LUA_LIMIT_SETS).map(([name, items]) => [name, set(items)])),
    });
    for (const [name, values] of Object.entries(SAMPLES)) {
      const expected = values.map((v) => LUA_LIMIT_PATTERNS[name as keyof typeof SAMPLES].test(v));
      // Each pattern is tried on values it takes and values it refuses.
      expect(new Set(expected), name).toEqual(new Set([true, false]));
      expect(matched[name], name).toEqual(expected);
    }
  });
});
