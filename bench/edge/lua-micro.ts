/**
 * The edge's Lua per request in a tight loop (`npx tsx bench/edge/lua-micro.ts`): the firewall
 * edge with one more location that calls the router's route(), the firewall's and the WAF's
 * checks N times for its own request (a bare GET from wrk's address to a domain of each case) and
 * answers the CPU µs per call. Caches and traces are warm, so the figures are lower bounds of what
 * a request costs under load; they are repeatable enough to compare two versions of the Lua.
 * MICRO_JIT_LOG=<file>: LuaJIT's trace log (jit.v) of the run, one file per host (<file>.<host>); MICRO_INIT: Lua run in the master
 * before rampart.init (a jit.opt setting to try).
 */
import { chmod, mkdtemp } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../apps/edge/test/helpers/net.js';
import { removeDir } from '../../apps/edge/test/helpers/real-control-plane.js';
import { FLOOD_HOST, startFirewallEdge } from './firewall-edge.js';
import { startNginx } from './load.js';

const N = Number(process.env.MICRO_N ?? 20_000);
const REPEAT = Number(process.env.MICRO_REPEAT ?? 7);

const snippet = `location = /rampart-micro { access_log off; content_by_lua_block {
${process.env.MICRO_JIT_LOG ? `require("jit.v").start(${JSON.stringify(process.env.MICRO_JIT_LOG)} .. "." .. ngx.var.host)` : ''}
  local router, store = require "rampart.router", require "rampart.store"
  local fw, waf = require "rampart.firewall", require "rampart.waf"
  local pages, escalate = require "rampart.pages", require "rampart.escalate"
  local var = ngx.var
  local domain, gen = store.lookup(var.host)
  local out = {}
  local function time(name, f)
    local best = math.huge
    for _ = 1, ${REPEAT} do
      collectgarbage()
      local t0 = os.clock()
      for _ = 1, ${N} do f() end
      local us = (os.clock() - t0) / ${N} * 1e6
      if us < best then best = us end
    end
    out[#out + 1] = string.format('"%s":%.3f', name, best)
  end
  time("route", function() return router.route() end)
  if domain and domain.firewallId then time("firewall", function() return fw.check(domain, gen, var) end) end
  if domain and domain.wafId then time("waf", function() return waf.check(domain, gen, var, false) end) end
  -- what the glue around them pays: the balancer's lookup, a variable read and write, the WAF's
  -- body test, the budget's clock (a system call), the request's headers
  -- a refusal's share: the deny page chosen, and counted for the escalation
  time("deny_page", function() return pages.body(4030) end)
  time("deny_page_var", function() var.rampart_page = pages.body(4030) end)
  if pages.parts then time("deny_parts_var", function() var.rampart_page, var.rampart_page_id, var.rampart_page_end = pages.parts(4030) end) end
  time("escalate_note", function() return escalate.note(var, "4030") end)
  -- every refusal past the escalation threshold (1 here): an escalated address, or one the
  -- site's whitelist spares (the bench firewall's range holds wrk's address)
  escalate.configure({ escalationRefusals = 1, escalationSeconds = 600 })
  time("escalate_past_threshold", function() return escalate.note(var, "4030") end)
  escalate.configure({})
  -- a challenge page with its own token and nonce (the Lua side: ngx.print sends what it returns)
  local html, serial = require "rampart.challenge_pages", 0
  time("challenge_page", function()
    serial = serial + 1
    return html.shield("/.rampart/challenge", "1.2.3.4.5.6a7b" .. serial .. ".10.abcdef0123456789", "6a7b" .. serial, 10, "/")
  end)
  time("routed_host", function() return store.routed(var.host) end)
  time("lookup", function() return store.lookup(var.host) end)
  -- the firewall's URL: as a Lua string (nginx's map, then interned) and as rampart.request_url reads it
  time("fw_url_string", function() return var.rampart_fw_url end)
  local ok, request_url = pcall(require, "rampart.request_url")
  if ok then time("fw_url_read", function() return request_url.read() end) end
  time("var_read", function() return var.host end)
  time("var_write", function() var.rampart_request_id = "edge-1-abc-" .. math.random(1, 1e9) end)
  time("has_body", function() return waf.has_body(var) end)
  time("os_clock", function() return os.clock() end)
  local keep
  time("get_headers", function() keep = ngx.req.get_headers(100) end)
  ngx.say("{" .. table.concat(out, ",") .. "}")
} }`;

function get(port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/rampart-micro', headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () =>
        res.statusCode === 200 ? resolve(body.trim()) : reject(new Error(`${res.statusCode} ${body}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function main() {
  const work = await mkdtemp(path.join(tmpdir(), 'rampart-micro-'));
  await chmod(work, 0o755);
  const originPort = await freePort();
  const stopOrigin = await startNginx(
    path.join(work, 'origin'),
    1,
    `  access_log off;\n  server { listen 127.0.0.1:${originPort}; location / { return 200 "origin\\n"; } }`,
  );
  const fw = await startFirewallEdge(1, originPort, 1, 1000, (i) => `d${i}.bench.example`);
  try {
    await fw.reload({ serverSnippet: snippet, ...(process.env.MICRO_INIT ? { initLua: process.env.MICRO_INIT } : {}) });
    for (const host of ['n1.bench.example', 'd1.bench.example', 'w1.bench.example', FLOOD_HOST]) {
      process.stdout.write(`${host} ${await get(fw.edge.httpPort, host)}\n`);
    }
  } finally {
    await fw.edge.stop();
    await stopOrigin();
    await removeDir(work);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`micro: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
