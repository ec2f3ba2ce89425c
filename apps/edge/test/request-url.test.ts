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
// (no Lua string of it per request), its user-agent patterns on the User-Agent and compares the
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

/** The test location; the patterns come from a file (nginx's parser of the Lua block never sees them). */
const snippet = (file: string) => `location /url-test/ { access_log off; content_by_lua_block {
  local f = io.open("${file}")
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
  end
  -- the path as the challenge path's test compares it
  local uri = request_url.uri
  uri.read()
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
  const file = path.join(dir, 'patterns.json');
  await writeFile(file, JSON.stringify(PATTERNS), { mode: 0o644 });
  origin = await startOrigin('origin');
  edge = await startEdge({ workerProcesses: 1 }, { serverSnippet: snippet(file) });
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

it('matches every firewall pattern on the URL and the User-Agent as ngx.re.find on them read as strings', async () => {
  const problems: string[] = [];
  let hits = 0;
  for (const [i, path] of targets(120).entries()) {
    // every other request with a User-Agent made of the path's characters
    const headers: Record<string, string> = i % 2 === 0 ? { 'user-agent': `Mozilla/5.0 ${path.slice(10)}` } : {};
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
  expect(hits).toBeLessThan(2 * 120 * PATTERNS.length);
}, 60_000);
