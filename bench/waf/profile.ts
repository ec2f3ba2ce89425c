/**
 * `npx tsx bench/waf/profile.ts`: where the WAF's CPU goes (bench only). One bare nginx worker
 * (startLuaNginx) runs rampart.waf's check on each request of a corpus `BENCH_PROFILE_REPEAT`
 * times (default 5) after one warm-up, timing it with the thread's CPU clock, with LuaJIT's
 * sampling profiler (jit.profile) on. Prints one JSON object: the µs of inspection per request
 * (mean, percentiles, the share of the total by request shape), the costliest requests (ids only,
 * never their content: the corpora carry real cookies) and the profiler's hottest functions and
 * lines. `BENCH_CORPORA` (default benign-traffic), `BENCH_LIMIT` as for bench:waf;
 * `BENCH_PROFILE_VERDICTS=<file>` writes each request's verdict (id, rule or "pass"), for
 * comparing two versions of the engine on the same material; `BENCH_PROFILE_SHAPE=<regex>` keeps the
 * requests whose shape ("GET - 0", "POST application/json 1-16k") it matches;
 * `BENCH_PROFILE_LUA_DIR` runs another copy of the edge's Lua (an older version, for comparing);
 * `BENCH_PROFILE_JITV=<file>` writes LuaJIT's trace log there (jit.v: each trace, each abort and why).
 */
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { WAF_GROUPS } from '@rampart/contract';
import { startLuaNginx } from '../../apps/edge/test/helpers/lua-nginx.js';
import { type Case, readCorpora } from './corpus.js';

const LUA_DIR =
  process.env.BENCH_PROFILE_LUA_DIR ?? path.resolve(import.meta.dirname, '..', '..', 'apps', 'edge', 'lua');
const REPEAT = Number(process.env.BENCH_PROFILE_REPEAT ?? 5);
const MODULE = {
  id: 1,
  type: 'waf',
  mode: 'block',
  groups: WAF_GROUPS,
  sensitivity: process.env.BENCH_WAF_SENSITIVITY ?? 'medium',
  failMode: 'open',
  exclusions: [],
};

const LUA = `
local cjson = require "cjson.safe"
local ffi = require "ffi"
-- (the declaration the edge's modules make, rampart.profile's: the first made in a Lua state wins)
pcall(ffi.cdef, "typedef struct { long tv_sec; long tv_nsec; } rampart_timespec; int clock_gettime(int, rampart_timespec *);")
local ts = ffi.new("rampart_timespec")
local function now_ns()
  ffi.C.clock_gettime(3, ts)
  return tonumber(ts.tv_sec) * 1e9 + tonumber(ts.tv_nsec)
end
local waf = require "rampart.waf"
local waf_compile = require "rampart.waf_compile"
local prof = require "jit.profile"
${process.env.BENCH_PROFILE_JITV ? `require("jit.v").on(${JSON.stringify(process.env.BENCH_PROFILE_JITV)})` : ''}
local M = waf_compile.compile(cjson.decode(${JSON.stringify(JSON.stringify(MODULE))}), { ${WAF_GROUPS.map((g) => `"${g}"`).join(', ')} }, { low = 8, medium = 5, high = 3 })
local counts = { f = {}, l = {}, v = {}, s = {} }
local started = false
local function sample(thread, samples, vmstate)
  local f = prof.dumpstack(thread, "pF", 1)
  local l = prof.dumpstack(thread, "pl", 1)
  counts.f[f] = (counts.f[f] or 0) + samples
  counts.l[l] = (counts.l[l] or 0) + samples
  counts.v[vmstate] = (counts.v[vmstate] or 0) + samples
  local st = prof.dumpstack(thread, "F <", 4)
  counts.s[st] = (counts.s[st] or 0) + samples
end
return {
  check = function()
    if not started then prof.start("i1", sample) started = true end
    local dom = { _waf = M }
    local var = ngx.var
    -- (as rampart.router: the body is read only when there is one)
    local with_body = waf.has_body(var)
    if with_body then ngx.req.read_body() end
    local route = waf.check(dom, 0, var, with_body)
    local n = ${REPEAT}
    local t0 = now_ns()
    for _ = 1, n do waf.check(dom, 0, var, with_body) end
    local ns = (now_ns() - t0) / n
    ngx.header["X-Waf-Ns"] = tostring(math.floor(ns))
    ngx.header["X-Waf-Rule"] = route and tostring(var.rampart_fw_rule) or "pass"
    ngx.say("ok")
  end,
  dump = function()
    prof.stop()
    started = false
    ngx.say(cjson.encode(counts))
    counts = { f = {}, l = {}, v = {}, s = {} }
  end,
}
`;

function send(port: number, bytes: Buffer): Promise<{ ns: number; rule: string; status: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(bytes));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const head = Buffer.concat(chunks).toString('latin1');
      resolve({
        status: Number(/^HTTP\/1\.\d (\d{3})/.exec(head)?.[1] ?? 0),
        ns: Number(/\r\nX-Waf-Ns: (\d+)/i.exec(head)?.[1] ?? Number.NaN),
        rule: /\r\nX-Waf-Rule: (\S+)/i.exec(head)?.[1] ?? '',
      });
    });
  });
}

/** The request as sent: Connection: close, Content-Length recomputed (as bench:waf's rewrite). */
function rewrite(c: Case): Buffer {
  const end = c.raw.indexOf('\r\n\r\n');
  if (end < 0) return c.raw;
  const body = c.raw.subarray(end + 4);
  const [line = '', ...headers] = c.raw.subarray(0, end).toString('latin1').split('\r\n');
  const name = (h: string) =>
    h
      .slice(0, Math.max(0, h.indexOf(':')))
      .trim()
      .toLowerCase();
  const chunked = headers.some((h) => name(h) === 'transfer-encoding');
  const out = [line.replace(/ (https?:\/\/[^/ ]+)/, ' ')];
  for (const h of headers) {
    const n = name(h);
    if (n === 'host') out.push('Host: waf-test.local');
    else if (n === 'connection') continue;
    else if (n === 'content-length' && !chunked) out.push(`Content-Length: ${body.length}`);
    else out.push(h);
  }
  out.push('Connection: close');
  return Buffer.concat([Buffer.from(`${out.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/** A request's shape, for the share of the total: method, body type and size. */
function shape(c: Case): string {
  const end = c.raw.indexOf('\r\n\r\n');
  const head = c.raw.subarray(0, end < 0 ? c.raw.length : end).toString('latin1');
  const bodyLen = end < 0 ? 0 : c.raw.length - end - 4;
  const method = head.slice(0, head.indexOf(' '));
  const ctype = /\r\ncontent-type:\s*([^;\r\n]+)/i.exec(head)?.[1]?.toLowerCase() ?? '';
  const size = bodyLen === 0 ? '0' : bodyLen < 1024 ? '<1k' : bodyLen < 16384 ? '1-16k' : '>16k';
  return `${method} ${ctype || '-'} ${size}`;
}

const top = (o: Record<string, number>, n: number) =>
  Object.fromEntries(
    Object.entries(o)
      .sort((a, b) => b[1] - a[1])
      .slice(0, n),
  );

async function main() {
  const corpora = (await readCorpora()).filter((c) => process.env.BENCH_CORPORA || c.name === 'benign-traffic');
  const nginx = await startLuaNginx('waf-profile', {
    http: `  lua_package_path '${LUA_DIR}/?.lua;/usr/share/lua/5.1/?.lua;/usr/share/luajit-2.1.0-beta3/?.lua;;';
  lua_regex_match_limit 100000;
  client_body_buffer_size 132k;
  client_max_body_size 16m;
  lua_shared_dict rampart_config 8m;
  lua_shared_dict rampart_limits 1m;
  init_by_lua_block { WAF_PROFILE = loadstring(${JSON.stringify(LUA)})() }`,
    server: `    location / {
      set $rampart_fw_kind ""; set $rampart_fw_rule ""; set $rampart_fw_action "";
      set $rampart_waf_part ""; set $rampart_waf_excerpt ""; set $rampart_waf_name "";
      content_by_lua_block { WAF_PROFILE.check() }
    }
    location = /__profile_dump { content_by_lua_block { WAF_PROFILE.dump() } }`,
  });
  const out: Record<string, unknown> = { repeat: REPEAT };
  try {
    for (const corpus of corpora) {
      const rows: { id: string; ns: number; rule: string; shape: string }[] = [];
      const only = process.env.BENCH_PROFILE_SHAPE ? new RegExp(process.env.BENCH_PROFILE_SHAPE) : undefined;
      for (const c of corpus.cases) {
        if (only && !only.test(shape(c))) continue;
        const r = await send(nginx.port, rewrite(c));
        if (r.status !== 200 || Number.isNaN(r.ns)) continue;
        rows.push({ id: c.id, ns: r.ns, rule: r.rule, shape: shape(c) });
      }
      const dump = await new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        const s = net.connect({ host: '127.0.0.1', port: nginx.port }, () =>
          s.write('GET /__profile_dump HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
        );
        s.on('data', (c: Buffer) => chunks.push(c));
        s.on('error', reject);
        s.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      });
      const body = dump.slice(dump.indexOf('\r\n\r\n') + 4);
      const json = body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1);
      const counts = JSON.parse(json) as Record<'f' | 'l' | 'v' | 's', Record<string, number>>;
      const us = rows.map((r) => r.ns / 1000).sort((a, b) => a - b);
      const total = us.reduce((a, b) => a + b, 0);
      const pct = (p: number) => Math.round(us[Math.min(us.length - 1, Math.floor(p * us.length))] ?? 0);
      const byShape: Record<string, { n: number; us: number }> = {};
      for (const r of rows) {
        const s = byShape[r.shape] ?? { n: 0, us: 0 };
        byShape[r.shape] = s;
        s.n++;
        s.us += r.ns / 1000;
      }
      out[corpus.name] = {
        judged: rows.length,
        errors: corpus.cases.length - rows.length,
        blocked: rows.filter((r) => r.rule !== 'pass').length,
        us_mean: Math.round((total / Math.max(1, rows.length)) * 10) / 10,
        us_p50_p90_p99_max: [pct(0.5), pct(0.9), pct(0.99), Math.round(us.at(-1) ?? 0)],
        share_by_shape: Object.fromEntries(
          Object.entries(byShape)
            .sort((a, b) => b[1].us - a[1].us)
            .slice(0, 12)
            .map(([k, v]) => [k, `${v.n} requests, ${Math.round((v.us / total) * 1000) / 10}%`]),
        ),
        costliest: rows
          .sort((a, b) => b.ns - a.ns)
          .slice(0, 15)
          .map((r) => `${r.id} ${Math.round(r.ns / 1000)}us ${r.shape}`),
        hot_functions: top(counts.f, 25),
        hot_lines: top(counts.l, 40),
        vm_states: counts.v,
        hot_stacks: top(counts.s, 30),
      };
      if (process.env.BENCH_PROFILE_VERDICTS) {
        await writeFile(
          process.env.BENCH_PROFILE_VERDICTS,
          `${rows.map((r) => JSON.stringify({ file: corpus.name, id: r.id, rule: r.rule, us: Math.round(r.ns / 100) / 10 })).join('\n')}\n`,
          { flag: 'a' },
        );
      }
    }
    const errors = (await nginx.errorLog()).split('\n').filter((l) => /\[(?:error|crit|alert|emerg)\]/.test(l));
    if (errors.length) out.error_log = errors.slice(-5).map((l) => l.slice(0, 400));
  } finally {
    await nginx.stop();
  }
  process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`waf profile: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
