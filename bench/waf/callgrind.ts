/**
 * Where the WAF-on edge's CPU goes, by instruction counts (bench only): `npx tsx bench/waf/callgrind.ts`.
 *
 * The real edge (as bench:waf's rampart_edge_waf_off / rampart_waf targets start it: the agent's
 * renderer, its Lua, one domain with or without a WAF module, every group on, block mode) is started,
 * then run again as one process (`master_process off; daemon off;`) under
 * `valgrind --tool=callgrind`; a warm-up, the counters zeroed, then the first BENCH_CALLGRIND_N
 * (default 200) requests of a corpus (BENCH_CORPORA, default benign-traffic) replayed one at a time,
 * one connection each, twice: the first pass warms up (the .1 dump), the second is measured (.2).
 * BENCH_CALLGRIND_WARMUP=next warms up on the next N requests instead (the engine's per-worker
 * memos then never hold a measured request's values: the measure is that of requests first seen);
 * BENCH_CALLGRIND_WARMUP_N sets how many (default N): a short warm-up leaves LuaJIT's trace compiler
 * busy during the measured replay (thousands of traces are compiled over the first 2,000 benign
 * requests), a long one measures the compiled engine.
 * BENCH_CALLGRIND_LUA_DIR runs another copy of the Lua (compare two versions). Instruction counts do not depend on the machine's
 * load, so two runs (BENCH_CALLGRIND_WAF=on, =off) compare on a shared machine:
 *   callgrind_annotate --inclusive=yes <out>.2
 * LuaJIT's traces show as unnamed code ("???"); the C functions around them (ngx_http_lua_*, lj_*,
 * nginx's body reading) are named. BENCH_CALLGRIND_OUT names the output (default /tmp/rampart-callgrind-<on|off>).
 */
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { startEdge } from '../../apps/edge/test/helpers/edge.js';
import { nginxUnderCallgrind } from '../nginx-callgrind.js';
import { type Case, readCorpora } from './corpus.js';
import { wafBenchDocument } from './waf-document.js';

const run = promisify(execFile);
const WAF_ON = (process.env.BENCH_CALLGRIND_WAF ?? 'on') === 'on';
const N = Number(process.env.BENCH_CALLGRIND_N ?? 200);
const OUT = process.env.BENCH_CALLGRIND_OUT ?? `/tmp/rampart-callgrind-${WAF_ON ? 'on' : 'off'}`;
const HOST = 'waf-test.local';
/** Another copy of the edge's Lua (compare two versions), as bench/waf/profile.ts's BENCH_PROFILE_LUA_DIR. */
const LUA_DIR = process.env.BENCH_CALLGRIND_LUA_DIR;
/** BENCH_CALLGRIND_WARMUP=next: warm up on the next N requests of the corpus, not the measured ones. */
const WARM_UP_NEXT = process.env.BENCH_CALLGRIND_WARMUP === 'next';
/** How many of the next requests that warm-up replays (default N): a longer one lets LuaJIT's trace compiler settle. */
const WARM_UP_N = Number(process.env.BENCH_CALLGRIND_WARMUP_N ?? N);
const log = (s: string) => process.stderr.write(`callgrind: ${s}\n`);

/** The case's bytes with the bench's Host, a fresh Content-Length and Connection: close (bench:waf's rewrite). */
function rewrite(c: Case): Buffer {
  const end = c.raw.indexOf('\r\n\r\n');
  if (end < 0 || c.noRewrite.size > 0) return c.raw;
  const body = c.raw.subarray(end + 4);
  const [requestLine = '', ...headers] = c.raw.subarray(0, end).toString('latin1').split('\r\n');
  const out = [requestLine];
  const chunked = headers.some((h) => /^transfer-encoding\s*:/i.test(h));
  for (const h of headers) {
    const n = h
      .slice(0, Math.max(0, h.indexOf(':')))
      .trim()
      .toLowerCase();
    if (n === 'host') out.push(`Host: ${HOST}`);
    else if (n === 'connection') continue;
    else if (n === 'content-length' && !chunked) out.push(`Content-Length: ${body.length}`);
    else out.push(h);
  }
  out.push('Connection: close');
  return Buffer.concat([Buffer.from(`${out.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/** Sends the bytes, answers the status line's code once the connection closes (0 for none). */
function send(port: number, bytes: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: '127.0.0.1', port });
    const timer = setTimeout(() => socket.destroy(), 60_000);
    const done = () => {
      clearTimeout(timer);
      const m = /^HTTP\/\d\.\d (\d{3})/.exec(Buffer.concat(chunks).subarray(0, 16).toString('latin1'));
      resolve(m ? Number(m[1]) : 0);
    };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', done);
    socket.on('error', () => undefined);
    socket.on('connect', () => socket.write(bytes));
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function main() {
  const corpus = (await readCorpora())[0];
  if (!corpus) throw new Error('no corpus');
  const cases = corpus.cases.slice(0, N);
  const warmUp = WARM_UP_NEXT ? corpus.cases.slice(N, N + WARM_UP_N) : cases;
  const origin = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok\n'));
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
  const originPort = (origin.address() as net.AddressInfo).port;
  const edge = await startEdge({ workerProcesses: 1, ...(LUA_DIR ? { luaDir: LUA_DIR } : {}) });
  const doc = wafBenchDocument('bench-callgrind-1', HOST, originPort, WAF_ON);
  const conf = await readFile(path.join(edge.prefix, 'current/nginx.conf'), 'utf8');
  await edge.nginx.stop();
  const oneProcess = path.join(edge.prefix, 'callgrind.conf');
  await writeFile(oneProcess, `master_process off;\ndaemon off;\n${conf}`);
  const child = nginxUnderCallgrind(
    edge.prefix,
    oneProcess,
    edge.settings.errorLogPath ?? path.join(edge.prefix, 'logs/error.log'),
    OUT,
  );
  try {
    await waitFor(async () => (await edge.push(doc)) !== undefined, 'the data plane');
    const probe = (raw: string) => send(edge.httpPort, Buffer.from(raw));
    const attack = await probe(
      `GET /?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`,
    );
    if (attack !== (WAF_ON ? 403 : 200)) throw new Error(`attack probe answered ${attack}`);
    // The warm-up replays the same slice: the measured replay sees compiled traces and a warm
    // regex cache (steady state), not LuaJIT's trace compiler.
    log('warm-up');
    for (const c of warmUp) await send(edge.httpPort, rewrite(c));
    await run('callgrind_control', ['-d', 'warm-up', String(child.pid)]);
    log(`replaying ${cases.length} requests of ${corpus.name}, WAF ${WAF_ON ? 'on' : 'off'}`);
    const statuses: Record<number, number> = {};
    for (const c of cases) {
      const status = await send(edge.httpPort, rewrite(c));
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    await run('callgrind_control', ['-d', 'replay', String(child.pid)]);
    log(`statuses ${JSON.stringify(statuses)}; profile of the replay: ${OUT}.2`);
  } finally {
    child.kill('SIGQUIT');
    await new Promise((r) => child.once('exit', r));
    origin.close();
    await rm(edge.prefix, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`callgrind: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
