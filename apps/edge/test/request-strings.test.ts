import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { REGEX_CORPUS } from './helpers/regex-corpus.js';
import { sendFrom } from './helpers/send.js';

// The Lua ACL's string conditions (rampart.acl) compare and match the request's Cookie, Referer,
// path, URI, User-Agent and headers in nginx's memory (rampart.request_url), without a Lua string of
// them per request. They must answer what the string version answered (`ngx.var[...] or ""`, then
// `==`, a prefix `sub`, a plain `find` or `ngx.re.find(..., "jo")`) for every value and request: a
// test location of the real edge compares both on generated requests, the long ones of the shape
// that shares a LuaJIT hash bucket included.

const PATTERNS = [...REGEX_CORPUS, '^/acl-test/', 'a{20,}', '[0-9a-f]{8}', 'bot=1', '(a+)+$', '.*', '^$'];

/** The test location's Lua, run from a file in `dir` (nginx's parser of the Lua block never sees it). */
const aclTest = (dir: string) => `
  local function old(variable, op, value)
    local s = ngx.var[variable] or ""
    if op == "exact" then return s == value end
    if op == "prefix" then return s:sub(1, #value) == value end
    if op == "contains" then return s:find(value, 1, true) ~= nil end
    return ngx.re.find(s, value, "jo") ~= nil
  end
  local f = io.open("${dir}/patterns.json")
  local patterns = require("cjson").decode(f:read("*a"))
  f:close()
  local out, hits, tried = {}, 0, 0
  local ok, err = pcall(function()
    local acl = require "rampart.acl"
    local fields = {
      { field = "cookie", var = "http_cookie" }, { field = "referer", var = "http_referer" },
      { field = "uriPath", var = "uri" }, { field = "uriString", var = "request_uri" },
      { field = "userAgent", var = "http_user_agent" }, { field = "header", name = "X-Scan", var = "http_x_scan" },
    }
    for _, f in ipairs(fields) do
      local s = ngx.var[f.var] or ""
      local n = #s
      local values = { s, s:sub(1, math.floor(n / 2)), s:sub(math.floor(n / 3) + 1, math.floor(2 * n / 3)), s .. "x",
        s:sub(1, -2), s:sub(2), "", "zz-not-there", "a", "=" }
      for _, op in ipairs({ "exact", "prefix", "contains", "regex" }) do
        local list = values
        if op == "regex" then list = patterns end
        for _, value in ipairs(list) do
          for _, negate in ipairs({ false, true }) do
            local c = acl.compile_condition({ field = f.field, name = f.name, op = op, value = value, negate = negate }, "1")
            local want, got = old(f.var, op, value), acl.string_matches(c)
            tried = tried + 1
            if want ~= got then
              out[#out + 1] = f.field .. " " .. op .. " " .. string.format("%q", value:sub(1, 80)) .. ": " .. tostring(want)
                .. ", in place " .. tostring(got)
            end
            if want and not negate then hits = hits + 1 end
          end
        end
      end
    end
  end)
  if not ok then out[#out + 1] = "error: " .. tostring(err) end
  ngx.print(hits, " ", tried, "\\n", table.concat(out, "\\n"))
`;

/**
 * The cache rules' test of the path and the cache key (rampart.router), as the string version
 * answered (the path as a Lua string, set lookups, paths.extension and in_directory, the key joined
 * in Lua), compared with the in-place answers and the key nginx holds in $rampart_cache_key.
 */
const cacheTest = () => `
  local out, hits, tried = {}, 0, 0
  local ok, err = pcall(function()
    local router, paths = require "rampart.router", require "rampart.paths"
    local request_url = require "rampart.request_url"
    local var = ngx.var
    local u = var.uri
    local function old_matches(rule, uri)
      if rule.scope == "all" then return true end
      if rule.scope == "path" then
        for _, v in ipairs(rule.values) do if ngx.unescape_uri(v) == uri then return true end end
        return false
      end
      if rule.scope == "suffix" then
        local ext = paths.extension(uri)
        for _, v in ipairs(rule.values) do if ext == v then return true end end
        return false
      end
      for _, v in ipairs(rule.values) do if paths.in_directory(paths.directory(v), uri) then return true end end
      return false
    end
    local function old_args(args, token_auth)
      if not args then return nil end
      if not token_auth or (not args:find("token=", 1, true) and not args:find("timestamp=", 1, true)) then return args end
      local kept = {}
      for pair in args:gmatch("[^&]+") do
        local name = pair:match("^[^=]*")
        if name ~= "token" and name ~= "timestamp" then kept[#kept + 1] = pair end
      end
      return table.concat(kept, "&")
    end
    local ext = paths.extension(u)
    local n = #u
    local values = {
      path = { u, u:sub(1, -2), u .. "x", u:sub(1, math.floor(n / 2)), "/cache-test/a%2Fb", "/cache-test/a/b" },
      suffix = { ext or "zz", "html", "jpg", "css", (ext or "zz"):upper() },
      directory = { u, u .. "/", u:sub(1, math.floor(n / 2)), "/cache-test", "/cache-test/", "/cache-tes", "/" },
    }
    local uri = request_url.uri
    for scope, list in pairs(values) do
      for k = 1, #list do
        local raw = { scope = scope, values = { list[k], list[#list - k + 1] }, ttl = 60, respectOrigin = true,
          queryString = k % 2 == 0 and "include" or "ignore" }
        local rule = router.compile_rule(raw)
        local want, got = old_matches(raw, u), router.rule_matches(rule, uri, uri.read())
        tried = tried + 1
        if want ~= got then out[#out + 1] = scope .. " " .. string.format("%q", list[k]:sub(1, 60)) .. ": " .. tostring(want) .. ", in place " .. tostring(got) end
        if want then hits = hits + 1 end
        -- the key of the rule, for a domain with and without token auth
        for _, token_auth in ipairs({ false, true }) do
          local domain = { _cache = { key_prefix = "7:3|", rules = { rule } }, origin = { scheme = "http" },
            tokenAuthId = token_auth and 1 or nil }
          var.rampart_cache_key = "-"
          local location = router.cached_location(domain, 1, var)
          local key = var.rampart_cache_key
          if want then
            local path = u
            if raw.queryString == "include" then
              local args = old_args(var.args, token_auth)
              if args and args ~= "" then path = u .. "?" .. args end
            end
            local old_key = "7:3|" .. var.host .. path
            if location ~= rule.location or key ~= old_key then
              out[#out + 1] = "key " .. tostring(location) .. " " .. string.format("%q", key:sub(1, 80)) .. ", was " .. string.format("%q", old_key:sub(1, 80))
            end
          elseif location ~= nil or key ~= "-" then
            out[#out + 1] = "no rule matched, yet " .. tostring(location)
          end
        end
      end
    end
  end)
  if not ok then out[#out + 1] = "error: " .. tostring(err) end
  ngx.print(hits, " ", tried, "\\n", table.concat(out, "\\n"))
`;

let edge: Edge;
let origin: Origin;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rampart-request-strings-'));
  await chmod(dir, 0o755);
  await writeFile(path.join(dir, 'patterns.json'), JSON.stringify(PATTERNS), { mode: 0o644 });
  await writeFile(path.join(dir, 'acl.lua'), aclTest(dir), { mode: 0o644 });
  await writeFile(path.join(dir, 'cache.lua'), cacheTest(), { mode: 0o644 });
  origin = await startOrigin('origin');
  edge = await startEdge(
    { workerProcesses: 1 },
    {
      serverSnippet: [
        `location /acl-test/ { access_log off; content_by_lua_block { dofile("${dir}/acl.lua") } }`,
        `location /cache-test/ { access_log off; content_by_lua_block { dofile("${dir}/cache.lua") } }`,
      ].join('\n'),
    },
  );
  await edge.push(document('request-strings-1', [domain(1, 'strings.example', [upstream(origin.port)])]));
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Deterministic strings: short and long, escapes, and the colliding shape (8 hex digits at 70%). */
function values(count: number, seed0: number): string[] {
  let seed = seed0;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const chars = 'abcdefxyz0123456789/-._~=&?:;%2F%20';
  const fill = 'a'.repeat(391);
  return Array.from({ length: count }, (_, i) => {
    if (i % 5 === 0) {
      return `${fill.slice(0, 270)}${next(2 ** 31)
        .toString(16)
        .padStart(8, '0')}${fill.slice(270)}`;
    }
    const length = next(i % 3 === 0 ? 600 : 40);
    let s = '';
    for (let k = 0; k < length; k++) s += chars[next(chars.length)];
    return s.replace(/%(?![0-9A-F]{2})/g, 'p');
  });
}

/**
 * The test locations' replies added up: each answers a line `<hits> <tried>` and then one line per
 * disagreement; a reply that is not a 200 is a problem too. `label` names the request in a problem.
 */
function tallies() {
  const totals = { hits: 0, tried: 0, problems: [] as string[] };
  const tally = (reply: Awaited<ReturnType<typeof sendFrom>>, label: string) => {
    if (reply === 'closed' || reply.status !== 200) {
      totals.problems.push(`${label}: ${reply === 'closed' ? 'closed' : reply.status}`);
      return;
    }
    const [counts, ...lines] = reply.body.split('\n');
    const [hits, tried] = (counts ?? '').split(' ').map(Number);
    totals.hits += hits ?? 0;
    totals.tried += tried ?? 0;
    for (const line of lines) if (line) totals.problems.push(`${label}: ${line}`);
  };
  return { tally, totals };
}

it("matches the ACL's string conditions in place as on the values read as strings", async () => {
  const paths = values(60, 59);
  const others = values(60, 7);
  const { tally, totals } = tallies();
  for (const [i, p] of paths.entries()) {
    const headers: Record<string, string> = {};
    const v = others[i] ?? '';
    // each header absent, empty or a value, in turns
    if (i % 3 !== 0) headers.cookie = i % 3 === 1 ? `bot=1; s=${v}` : '';
    if (i % 4 !== 0) headers.referer = `https://ref.example/${v}`;
    if (i % 2 === 0) headers['user-agent'] = `Mozilla/5.0 ${v}`;
    if (i % 5 !== 0) headers['x-scan'] = i % 5 === 1 ? '' : v;
    const reply = await sendFrom('127.0.0.1', edge.httpPort, 'strings.example', {
      path: `/acl-test/${p}${i % 2 === 1 ? `?q=${i}&debug=1` : ''}`,
      headers,
    });
    tally(reply, p.slice(0, 40));
  }
  expect(totals.problems).toEqual([]);
  // Both answers occur: some conditions hold, most do not.
  expect(totals.hits).toBeGreaterThan(60);
  expect(totals.hits).toBeLessThan(totals.tried / 2);
}, 120_000);

it("tests the cache rules' paths in place and writes the cache key nginx keeps as the string version did", async () => {
  const endings = ['', '.html', '.HTML', '.a.b.jpg', '.', '/.htaccess', '/x.css/', `.${'j'.repeat(300)}`];
  const queries = ['', '?', '?a=1&b=2', '?token=abc&a=1&timestamp=9', '?token=x', `?q=${'z'.repeat(500)}`];
  const { tally, totals } = tallies();
  for (const [i, p] of values(48, 11).entries()) {
    const target = `/cache-test/${p}${endings[i % endings.length]}${queries[i % queries.length]}`;
    tally(await sendFrom('127.0.0.1', edge.httpPort, 'strings.example', { path: target }), target.slice(0, 60));
  }
  expect(totals.problems).toEqual([]);
  // Both answers occur: some rules match the path, others do not.
  expect(totals.hits).toBeGreaterThan(48);
  expect(totals.hits).toBeLessThan(totals.tried);
}, 120_000);
