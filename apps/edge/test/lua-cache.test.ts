import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_LUA_CPATH, SYSTEM_LUA_PATH } from '../src/nginx/render.js';
import { LUA_DIR } from './helpers/edge.js';
import { type LuaNginx, startLuaNginx } from './helpers/lua-nginx.js';

// rampart.cache (the per-worker bounded map on the request path) exercised inside a real nginx
// worker, the only place its Lua runs. Each location runs one scenario and answers JSON.
const SCENARIOS: Record<string, string> = {
  // Size 3: four sets turn the first three into the older table; all four are still found.
  rotation: `
    local c = cache.new(3)
    for i = 1, 4 do cache.set(c, "k" .. i, i) end
    local out = {}
    for i = 1, 4 do out[i] = cache.get(c, "k" .. i) or false end
    return { found = out }`,
  // Entries not used for two rotations are dropped; one read in between keeps an entry.
  eviction: `
    local c = cache.new(2)
    cache.set(c, "kept", 1); cache.set(c, "dropped", 2)
    cache.set(c, "a", 3)                -- rotation: kept and dropped become the older table
    local kept = cache.get(c, "kept")   -- copied back into the newer table
    cache.set(c, "b", 4); cache.set(c, "c", 5) -- second rotation: dropped goes
    return { kept = cache.get(c, "kept") or false, dropped = cache.get(c, "dropped") or false, first = kept }`,
  // Setting an existing key replaces its value without counting it twice.
  overwrite: `
    local c = cache.new(2)
    cache.set(c, "x", 1); cache.set(c, "x", 2); cache.set(c, "y", 3)
    return { x = cache.get(c, "x"), count = c.count, missing = cache.get(c, "nope") == nil }`,
  // Never more than 2 × size entries, however many are set.
  bounded: `
    local c = cache.new(100)
    for i = 1, 10000 do cache.set(c, "h" .. i, i) end
    local held = 0
    for _ in pairs(c.new) do held = held + 1 end
    for _ in pairs(c.old) do held = held + 1 end
    return { held = held, last = cache.get(c, "h10000"), early = cache.get(c, "h1") or false }`,
  invalid: `
    local ok, err = pcall(cache.new, 0)
    return { ok = ok, err = tostring(err):match("cache size must be a positive number") ~= nil }`,
};

let lua: LuaNginx;

beforeAll(async () => {
  const locations = Object.entries(SCENARIOS)
    .map(
      ([name, body]) => `
    location = /${name} {
      content_by_lua_block {
        local cache = require "rampart.cache"
        local result = (function() ${body} end)()
        ngx.say(require("cjson").encode(result))
      }
    }`,
    )
    .join('\n');
  lua = await startLuaNginx('lua-cache', {
    http: `  lua_package_path '${LUA_DIR}/?.lua;${SYSTEM_LUA_PATH};;';
  lua_package_cpath '${SYSTEM_LUA_CPATH};;';
  # Loaded in the master, as the edge does: the workers run unprivileged and need not read the repo.
  init_by_lua_block { require "rampart.cache" }`,
    server: locations,
  });
});

afterAll(async () => {
  await lua?.stop();
});

async function scenario(name: string): Promise<Record<string, unknown>> {
  const response = await fetch(`http://127.0.0.1:${lua.port}/${name}`, { signal: AbortSignal.timeout(10_000) });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('rampart.cache, the bounded map the router reads per request', () => {
  it('finds entries in the older table after the newer one filled up', async () => {
    expect(await scenario('rotation')).toEqual({ found: [1, 2, 3, 4] });
  });

  it('drops entries unused for two rotations and keeps the ones read in between', async () => {
    expect(await scenario('eviction')).toEqual({ kept: 1, dropped: false, first: 1 });
  });

  it('replaces a value without counting its key twice', async () => {
    expect(await scenario('overwrite')).toEqual({ x: 2, count: 2, missing: true });
  });

  it('holds at most twice its size', async () => {
    const result = await scenario('bounded');
    expect(result.held).toBeLessThanOrEqual(200);
    expect(result.held).toBeGreaterThanOrEqual(100);
    expect(result).toMatchObject({ last: 10000, early: false });
  });

  it('refuses a size below one', async () => {
    expect(await scenario('invalid')).toEqual({ ok: false, err: true });
  });
});
