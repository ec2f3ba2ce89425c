import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { REGEX_CORPUS } from './helpers/regex-corpus.js';
import { sendFrom } from './helpers/send.js';

// rampart.request_url matches the firewall's URL patterns on nginx's own copy of $rampart_fw_url
// (no Lua string of it per request), its user-agent and header patterns on those headers and compares the
// path with the challenge path in place. It must answer what `ngx.re.find(ngx.var.rampart_fw_url,
// pattern, "jo")` (the User-Agent: "ijo") and `==` answer, for every pattern and request: a test
// location of the real edge compares them on generated requests, long ones of the shape that
// shares a LuaJIT hash bucket included.

const PATTERNS = [
  ...REGEX_CORPUS,
  'https?:\\/\\/admin\\.url\\.example(.*)',
  '^http://url\\.example/',
  'url\\.example:\\d+',
  '\\?(.*&)?x=1',
  '/a{20,}',
  '%2[fF]',
  '[0-9a-f]{8}$',
  '.*',
  '/*',
  '(a+)+$',
];

/**
 * The string parser of Accept-Language that rampart.accept_language replaced (rampart.pages before
 * it), the reference its in-place answers are compared with.
 */
const OLD_ACCEPT_LANGUAGE = `
  local lower, sub, find = string.lower, string.sub, string.find
  local function language_of(range)
    if range == "en" or sub(range, 1, 3) == "en-" then return "en_US" end
    if range == "zh" then return "zh_CN" end
    if sub(range, 1, 3) ~= "zh-" then return nil end
    if find(range, "^zh%-hant") then return "zh_TW" end
    if find(range, "^zh%-hans") then return "zh_CN" end
    if find(range, "^zh%-tw") or find(range, "^zh%-hk") or find(range, "^zh%-mo") then return "zh_TW" end
    return "zh_CN"
  end
  local function old(header)
    if type(header) ~= "string" or header == "" then return nil end
    local best, best_q = nil, 0
    for item in (lower(sub(header, 1, 512)) .. ","):gmatch("([^,]*),") do
      local range = item:match("^%s*([a-z][a-z0-9-]*)")
      local language = range and language_of(range)
      if language then
        local q = tonumber(item:match(";%s*q%s*=%s*([0-9.]+)") or "1") or 0
        if q > best_q then best, best_q = language, q end
      end
    end
    return best
  end`;

/** The Accept-Language comparison, run by the test location from a file (nginx never parses it). */
const LANGUAGE_TEST = `${OLD_ACCEPT_LANGUAGE}
  local out, named = {}, 0
  local ok, err = pcall(function()
  local accept_language = require "rampart.accept_language"
  -- this request's header, read in place
  if accept_language.visitor() ~= old(ngx.var.http_accept_language) then out[#out + 1] = "visitor" end
  -- generated values: pieces of real lists, separators, spaces and q values in every case
  local pieces = { "en", "EN", "en-US", "zh", "ZH-tw", "zh-Hant", "zh-hans-HK", "zh-HK", "zh-mo", "zh-", "zh-x",
    "fr", "e", "x-en", "*", ";", "q", "Q", "=", " ", "\\t", ",", ";q=", "; q = ", "0", "1", "0.5", ".", "0.", ".9",
    "1.2.3", "0.80", "-", "9" }
  math.randomseed(59)
  for n = 1, 20000 do
    local t = {}
    for k = 1, math.random(0, n % 50 == 0 and 200 or 12) do t[k] = pieces[math.random(#pieces)] end
    local h = table.concat(t)
    local want, got = old(h), accept_language.of(h)
    if want ~= got then out[#out + 1] = string.format("%q: %s, in place %s", h, tostring(want), tostring(got)) end
    if want then named = named + 1 end
  end
  end)
  if not ok then out[#out + 1] = "error: " .. tostring(err) end
  ngx.print(named, "\\n", table.concat(out, "\\n"))
`;

/**
 * The string parser of a Referer's host that rampart.firewall_headers' host_at (in place) replaced,
 * the reference its answers are compared with.
 */
const OLD_REFERER_HOST = `
  local lower, sub, find, byte = string.lower, string.sub, string.find, string.byte
  local function old(referer)
    if #referer > 2048 then referer = sub(referer, 1, 2048) end
    local at = find(referer, "://", 1, true)
    if at == nil or at == 1 or at > 32 then return "" end
    local rest = sub(referer, at + 3)
    local stop = find(rest, "[/?#]")
    local authority = stop and sub(rest, 1, stop - 1) or rest
    local user = find(authority:reverse(), "@", 1, true)
    if user then authority = sub(authority, #authority - user + 2) end
    if byte(authority, 1) == 91 then return "" end
    local colon = find(authority, ":", 1, true)
    if colon then authority = sub(authority, 1, colon - 1) end
    if byte(authority, -1) == 46 then authority = sub(authority, 1, -2) end
    return lower(authority)
  end
  -- the in-place answer keeps a host's last 256 bytes (its parents a pattern can name)
  local function want(referer)
    local h = old(referer)
    return #h > 256 and sub(h, -256) or h
  end`;

/** The Referer comparison: this request's header read in place, then generated values. */
const REFERER_TEST = `${OLD_REFERER_HOST}
  local out, hosts = {}, 0
  local ok, err = pcall(function()
  local ffi = require "ffi"
  local host_at = require("rampart.firewall_headers").host_at
  local request_url = require "rampart.request_url"
  local function got(s) return host_at(ffi.cast("const unsigned char *", s), #s) end
  local referer = request_url.reader("http_referer")
  local len = referer.read()
  local header = ngx.var.http_referer
  if (len == nil) ~= (header == nil) then out[#out + 1] = "referer read" end
  if header and host_at(referer.pointer(), len) ~= want(header) then out[#out + 1] = "this request's Referer" end
  -- the pass cookie as rampart.challenge reads it
  local pass = request_url.reader("cookie_rampart_pass")
  local cookie = ngx.var.cookie_rampart_pass
  if (pass.read() == nil) ~= (cookie == nil) or (cookie and pass.string() ~= cookie) then out[#out + 1] = "pass cookie" end
  local pieces = { "http", "https", "://", ":/", "/", "?", "#", "@", ":", ".", "[", "]", "::1", "a", "B", "example",
    "com", "x-y", "8080", "user:pw", " ", "%40", "WWW", ".." }
  math.randomseed(59)
  for n = 1, 20000 do
    local t = {}
    for k = 1, math.random(1, n % 50 == 0 and 600 or 14) do t[k] = pieces[math.random(#pieces)] end
    if n % 7 == 0 then table.insert(t, 1, "https://") end
    local s = table.concat(t)
    local w, g = want(s), got(s)
    if w ~= g then out[#out + 1] = string.format("%q: %q, in place %q", s, w, g) end
    if w ~= "" then hosts = hosts + 1 end
  end
  end)
  if not ok then out[#out + 1] = "error: " .. tostring(err) end
  ngx.print(hosts, "\\n", table.concat(out, "\\n"))
`;

/**
 * The string matcher of redirect and rewrite rules that rampart.modules' match_rules (in place)
 * replaced, compared with it on each request's path; a file returning the comparison.
 */
const MODULES_TEST = `
  local byte = string.byte
  local function encode(s)
    return (s:gsub("[^A-Za-z0-9._~!$&'()*+,;=:@/-]", function(c) return ("%%%02X"):format(byte(c)) end))
  end
  local function old(set, uri, escape)
    local rule = set.exact[uri]
    if rule then return rule, rule.target end
    for _, p in ipairs(set.prefixes) do
      if uri:sub(1, #p.prefix) == p.prefix then
        local rest = uri:sub(#p.prefix + 1)
        return p.rule, p.rule.target .. (escape and encode(rest) or rest)
      end
    end
    for _, r in ipairs(set.regexes) do
      local m = ngx.re.match(uri, r.regex, "jo")
      if m then
        local target = r.target:gsub("%$(%d)", function(d)
          local group = m[tonumber(d)] or ""
          return escape and encode(group) or group
        end)
        return r, target
      end
    end
    return nil
  end
  return function(patterns)
    local modules = require "rampart.modules"
    local u, out, hits = ngx.var.uri, {}, 0
    local sources = { exact = { u, "/url-test/", u .. "x", u:sub(1, -2) }, prefix = { "/url-test/a", u:sub(1, 20), "/url-test/", "/x" },
      regex = { "^/url-test/(.*)$", "([0-9a-f]{8})(a*)$", "/(b+)" } }
    for _, p in ipairs(patterns) do sources.regex[#sources.regex + 1] = p end
    for kind, list in pairs(sources) do
      local raw = {}
      for i, source in ipairs(list) do raw[i] = { match = kind, source = source, target = "/t" .. i .. "/$1$2", code = 301 } end
      local set = modules.compile_rules(raw, true)
      for _, escape in ipairs({ true, false }) do
        local wr, wt = old(set, u, escape)
        local gr, gt = modules.match_rules(set, escape)
        if wr ~= gr or wt ~= gt then out[#out + 1] = kind .. " rules: " .. tostring(wt) .. ", in place " .. tostring(gt) end
        if wr then hits = hits + 1 end
      end
    end
    return out, hits
  end
`;

/** The test locations; their Lua and patterns come from files (nginx's parser of the Lua block never sees them). */
const snippet = (
  dir: string,
) => `location = /language-test { access_log off; content_by_lua_block { dofile("${dir}/language.lua") } }
location = /referer-test { access_log off; content_by_lua_block { dofile("${dir}/referer.lua") } }
location /url-test/ { access_log off; content_by_lua_block {
  local f = io.open("${dir}/patterns.json")
  local patterns = require("cjson").decode(f:read("*a"))
  f:close()
  local request_url = require "rampart.request_url"
  local url = ngx.var.rampart_fw_url
  local out, hits = {}, 0
  local len = request_url.read()
  if len ~= #url or request_url.string() ~= url then out[#out + 1] = "read: " .. request_url.string() end
  for _, p in ipairs(patterns) do
    local from, _, err = ngx.re.find(url, p, "jo")
    local found, ferr = request_url.find(p)
    if (from ~= nil) ~= (found == true) or (err ~= nil) ~= (ferr ~= nil) then
      out[#out + 1] = p .. ": re.find " .. tostring(from) .. " " .. tostring(err) .. ", request_url " .. tostring(found) .. " " .. tostring(ferr)
    end
    if from then hits = hits + 1 end
    -- the User-Agent as the user-agent rules match it (none: "")
    local ua = request_url.user_agent
    ua.read()
    from, _, err = ngx.re.find(ngx.var.http_user_agent or "", p, "ijo")
    found, ferr = ua.find(p, "ijo")
    if (from ~= nil) ~= (found == true) or (err ~= nil) ~= (ferr ~= nil) then
      out[#out + 1] = "user agent " .. p .. ": re.find " .. tostring(from) .. ", request_url " .. tostring(found)
    end
    if from then hits = hits + 1 end
    -- a header as the header rules read it: absent (nil), empty or a value
    local x = request_url.reader_of("http_x_scan")
    local value = ngx.var.http_x_scan
    if (x.read() == nil) ~= (value == nil) then out[#out + 1] = "x-scan read" end
    if value ~= nil then
      from, _, err = ngx.re.find(value, p, "ijo")
      found, ferr = x.find(p, "ijo")
      if (from ~= nil) ~= (found == true) or (err ~= nil) ~= (ferr ~= nil) then
        out[#out + 1] = "x-scan " .. p .. ": re.find " .. tostring(from) .. ", request_url " .. tostring(found)
      end
      if from then hits = hits + 1 end
    end
  end
  -- the path as the challenge path's test compares it
  local uri = request_url.uri
  uri.read()
  -- the path as the auth groups' rules match it: the regex rules, then exact and prefix ones
  local auth = require "rampart.auth"
  local u = ngx.var.uri
  for _, p in ipairs(patterns) do
    local from, _, err = ngx.re.find(u, p, "jo")
    if auth.path_matches({ match = "regex", path = p }, uri) ~= (err == nil and from ~= nil) then
      out[#out + 1] = "auth regex " .. p
    end
  end
  for _, p in ipairs({ u, u:sub(1, math.floor(#u / 2)), u .. "x", u:sub(1, -2) .. "#", "/url-test/", "/url-test", "/", "" }) do
    if auth.path_matches({ match = "exact", path = p }, uri) ~= (u == p)
      or auth.path_matches({ match = "prefix", path = p }, uri) ~= (u:sub(1, #p) == p) then
      out[#out + 1] = "auth path " .. p
    end
  end
  -- the path as token auth's scopes cover it and its MD5 signs it
  local ta, paths = require "rampart.token_auth", require "rampart.paths"
  local len = uri.read()
  for _, p in ipairs({ u, u:sub(1, math.floor(#u / 2)), u .. "/", u:sub(1, -2), "/url-test/", "/url-test", "/" }) do
    local dir = paths.directory(p)
    if ta.covers({ scope = "path", path = p }, uri, len) ~= (u == p)
      or ta.covers({ scope = "directory", dir = dir }, uri, len) ~= paths.in_directory(dir, u) then
      out[#out + 1] = "token auth path " .. p
    end
  end
  local ext = paths.extension(u)
  for _, types in ipairs({ { [ext or "-"] = true }, { html = true, a = true, f = true } }) do
    if ta.covers({ scope = "fileTypes", types = types }, uri, len) ~= (ext ~= nil and types[ext] == true) then
      out[#out + 1] = "token auth extension " .. tostring(ext)
    end
  end
  for _, p in ipairs(patterns) do
    local from, _, err = ngx.re.find(u, p, "jo")
    if ta.covers({ scope = "regex", pattern = p, id = "1" }, uri, len) ~= (err ~= nil or from ~= nil) then
      out[#out + 1] = "token auth regex " .. p
    end
  end
  local a = { expire = 0, key = "k3y-" .. #u }
  if not ta.accepts(a, uri, len, ngx.md5(a.key .. u .. "1700000000"), "1700000000", 1700000000)
    or ta.accepts(a, uri, len, ngx.md5(a.key .. u .. "x1700000000"), "1700000000", 1700000000) then
    out[#out + 1] = "token auth md5"
  end
  -- the path as the redirect and rewrite rules match it
  local module_problems, module_hits = dofile("${dir}/modules.lua")(patterns)
  for _, p in ipairs(module_problems) do out[#out + 1] = p end
  hits = hits + module_hits
  -- the page the challenge sends the client back to
  local challenge = require "rampart.challenge"
  if challenge.own_return() ~= challenge.safe_return(ngx.var.request_uri) then out[#out + 1] = "challenge return" end
  if not uri.equals(ngx.var.uri) or uri.equals(ngx.var.uri .. "x") or uri.equals(ngx.var.uri:sub(1, -2) .. "#")
    or uri.equals("/.rampart/challenge") then
    out[#out + 1] = "uri equals: " .. ngx.var.uri
  end
  ngx.print(hits, "\\n", table.concat(out, "\\n"))
} }`;

let edge: Edge;
let origin: Origin;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rampart-request-url-'));
  await chmod(dir, 0o755);
  await writeFile(path.join(dir, 'patterns.json'), JSON.stringify(PATTERNS), { mode: 0o644 });
  await writeFile(path.join(dir, 'language.lua'), LANGUAGE_TEST, { mode: 0o644 });
  await writeFile(path.join(dir, 'referer.lua'), REFERER_TEST, { mode: 0o644 });
  await writeFile(path.join(dir, 'modules.lua'), MODULES_TEST, { mode: 0o644 });
  origin = await startOrigin('origin');
  edge = await startEdge({ workerProcesses: 1 }, { serverSnippet: snippet(dir) });
  await edge.push(document('request-url-1', [domain(1, 'url.example', [upstream(origin.port)])]));
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Deterministic request targets under /url-test/: short and long, with queries and escapes. */
function targets(count: number): string[] {
  let seed = 59;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const chars = 'abcdefxyz0123456789/-._~=&?:%2F%20';
  return Array.from({ length: count }, (_, i) => {
    // past the challenge's return bound (2048 bytes)
    if (i % 40 === 7) return `/url-test/${'b'.repeat(2040 + i)}?q=${i}`;
    if (i % 5 === 0) {
      // the colliding shape: one length, 8 hex digits varying at 70% of the path
      const fill = 'a'.repeat(391);
      return `/url-test/${fill.slice(0, 270)}${next(2 ** 31)
        .toString(16)
        .padStart(8, '0')}${fill.slice(270)}`;
    }
    const length = next(i % 3 === 0 ? 600 : 40);
    let rest = '';
    for (let k = 0; k < length; k++) rest += chars[next(chars.length)];
    return `/url-test/${rest.replace(/%(?![0-9A-F]{2})/g, 'p')}`;
  });
}

it('matches every firewall pattern on the URL, the User-Agent and a header as ngx.re.find on them read as strings', async () => {
  const problems: string[] = [];
  let hits = 0;
  for (const [i, path] of targets(120).entries()) {
    // every other request with a User-Agent made of the path's characters
    const headers: Record<string, string> = i % 2 === 0 ? { 'user-agent': `Mozilla/5.0 ${path.slice(10)}` } : {};
    // and every third a header rule's header, empty every ninth
    if (i % 3 === 0) headers['x-scan'] = i % 9 === 0 ? '' : `sqlmap/${path.slice(10)}`;
    const reply = await sendFrom('127.0.0.1', edge.httpPort, 'url.example', { path, headers });
    if (reply === 'closed' || reply.status !== 200) {
      problems.push(`${path}: ${reply === 'closed' ? 'closed' : reply.status}`);
      continue;
    }
    const [count, ...lines] = reply.body.split('\n');
    hits += Number(count);
    for (const line of lines) if (line) problems.push(`${path}: ${line}`);
  }
  expect(problems).toEqual([]);
  // Both answers occur: some patterns match, most do not.
  expect(hits).toBeGreaterThan(120);
  expect(hits).toBeLessThan(3 * 120 * PATTERNS.length);
}, 60_000);

it('finds the language of Accept-Language in place as the string parser did', async () => {
  const headers = ['zh-TW,zh;q=0.9,en;q=0.8', `${'x-aa,'.repeat(120)}zh-Hant`, ''];
  for (const value of headers) {
    const reply = await sendFrom('127.0.0.1', edge.httpPort, 'url.example', {
      path: '/language-test',
      headers: value ? { 'accept-language': value } : {},
    });
    if (reply === 'closed') throw new Error('closed');
    const [named, ...problems] = reply.body.split('\n').filter((line, i) => i === 0 || line);
    expect(problems).toEqual([]);
    // Both answers occur among the generated values: a language of ours, and none.
    expect(Number(named)).toBeGreaterThan(1000);
    expect(Number(named)).toBeLessThan(20000);
  }
}, 60_000);

it("finds the Referer's host in place as the string parser did, and reads the pass cookie in place", async () => {
  // the colliding shape: one length, 8 hex digits varying at 70% of the host
  const fill = 'a'.repeat(600);
  const collide = (n: number) =>
    `https://u@${fill.slice(0, 420)}${n.toString(16).padStart(8, '0')}${fill.slice(420)}.example.com:8/x`;
  const cases: [string | undefined, string | undefined][] = [
    ['https://User@WWW.Example.com.:443/p?q#f', '1.2.1700000000.00112233445566778899aabbccddeeff'],
    [collide(1), `1.2.3.${'f'.repeat(40)}`],
    [collide(0x7fffffff), ''],
    ['', undefined],
    [undefined, undefined],
    ['//no.scheme.example/', `${'9'.repeat(200)}`],
  ];
  for (const [referer, cookie] of cases) {
    const headers: Record<string, string> = {};
    if (referer !== undefined) headers.referer = referer;
    if (cookie !== undefined) headers.cookie = `a=b; rampart_pass=${cookie}`;
    const reply = await sendFrom('127.0.0.1', edge.httpPort, 'url.example', { path: '/referer-test', headers });
    if (reply === 'closed') throw new Error('closed');
    const [hosts, ...problems] = reply.body.split('\n').filter((line, i) => i === 0 || line);
    expect(problems).toEqual([]);
    // Both answers occur among the generated values: a host, and none.
    expect(Number(hosts)).toBeGreaterThan(1000);
    expect(Number(hosts)).toBeLessThan(20000);
  }
}, 60_000);
