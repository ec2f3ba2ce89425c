/**
 * Instructions per passing request, edge against plain nginx (bench only): `npx tsx bench/edge/callgrind.ts`.
 *
 * As bench/waf/callgrind.ts (whose replay it follows), for bench:edge's passing request: one nginx
 * process (`master_process off; daemon off;`) under `valgrind --tool=callgrind`, a warm-up of N
 * requests, the counters zeroed, then N more (BENCH_CALLGRIND_N, default 200): `GET /` with a Host,
 * one connection each (Connection: close), to a local origin. BENCH_CALLGRIND_CASE picks the proxy:
 * - `none`: the edge (the agent's renderer, its Lua, the bench's geo database), one domain, no rules;
 * - `firewall`: the same, the domain under bench:edge's firewall (benchFirewall: whitelist, 1,000-address
 *   blacklist, geo, user agent, header, rate limit), none of which decides the request;
 * - `baseline`: bench:edge's plain nginx proxy (proxy_pass, keepalive pool, combined access log).
 * BENCH_CALLGRIND_LUA_DIR runs another copy of the Lua. Total instructions of the measured dump
 * (`<out>.2`) divided by N is the figure (`callgrind_annotate <out>.2 | head`); it does not depend
 * on the machine's load.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { document, domain, upstream } from '../../apps/edge/test/helpers/documents.js';
import { startEdge } from '../../apps/edge/test/helpers/edge.js';
import { freePort } from '../../apps/edge/test/helpers/net.js';
import { nginxUnderCallgrind } from '../nginx-callgrind.js';
import { writeBenchGeoDatabase } from './firewall-edge.js';
import { benchFirewall } from './rules.js';

const run = promisify(execFile);
const CASE = process.env.BENCH_CALLGRIND_CASE ?? 'none';
const N = Number(process.env.BENCH_CALLGRIND_N ?? 200);
const OUT = process.env.BENCH_CALLGRIND_OUT ?? `/tmp/rampart-edge-callgrind-${CASE}`;
const LUA_DIR = process.env.BENCH_CALLGRIND_LUA_DIR;
const HOST = 'b0.bench.example';
const log = (s: string) => process.stderr.write(`callgrind: ${s}\n`);

function get(port: number): Promise<number> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: '127.0.0.1', port });
    const timer = setTimeout(() => socket.destroy(), 60_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => {
      clearTimeout(timer);
      const m = /^HTTP\/\d\.\d (\d{3})/.exec(Buffer.concat(chunks).subarray(0, 16).toString('latin1'));
      resolve(m ? Number(m[1]) : 0);
    });
    socket.on('error', () => undefined);
    socket.on('connect', () => socket.write(`GET / HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`));
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The baseline: bench/edge/baseline.ts's proxy, as one process. */
async function baseline(originPort: number) {
  const dir = path.join(os.tmpdir(), `rampart-callgrind-baseline-${process.pid}`);
  await mkdir(path.join(dir, 'logs'), { recursive: true });
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  await writeFile(
    conf,
    `master_process off;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 4096; }
http {
  client_body_temp_path ${dir}/tmp-body; proxy_temp_path ${dir}/tmp-proxy;
  fastcgi_temp_path ${dir}/tmp-fcgi; uwsgi_temp_path ${dir}/tmp-uwsgi; scgi_temp_path ${dir}/tmp-scgi;
  keepalive_requests 100000;
  access_log ${dir}/logs/access.log combined buffer=64k flush=1s;
  upstream origin { server 127.0.0.1:${originPort}; keepalive 256; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
}
`,
  );
  const child = nginxUnderCallgrind(dir, conf, `${dir}/logs/error.log`, OUT);
  await waitFor(async () => (await get(port)) === 200, 'the baseline');
  return { child, port, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The edge, with or without bench:edge's firewall on its one domain. */
async function edge(originPort: number) {
  const e = await startEdge({ workerProcesses: 1, ...(LUA_DIR ? { luaDir: LUA_DIR } : {}) });
  const { geoDir, geoDatabase } = await writeBenchGeoDatabase(e.prefix);
  const conf = e.render({ geoDir, workerProcesses: 1 });
  await e.nginx.stop();
  const oneProcess = path.join(e.prefix, 'callgrind.conf');
  await writeFile(oneProcess, `master_process off;\ndaemon off;\n${conf}`);
  const child = nginxUnderCallgrind(
    e.prefix,
    oneProcess,
    e.settings.errorLogPath ?? path.join(e.prefix, 'logs/error.log'),
    OUT,
  );
  const firewall = CASE === 'firewall';
  const doc = {
    ...document(
      'bench-edge-callgrind',
      [domain(1, HOST, [upstream(originPort)], firewall ? { firewallId: 1 } : {})],
      [],
      [],
      {
        firewalls: firewall ? [benchFirewall(1)] : [],
      },
    ),
    geoDatabase,
  };
  await waitFor(async () => (await e.push(doc)) !== undefined, 'the data plane');
  await waitFor(async () => (await get(e.httpPort)) === 200, 'the domain');
  return { child, port: e.httpPort, cleanup: () => rm(e.prefix, { recursive: true, force: true }) };
}

async function main() {
  const origin = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('hello from the origin\n'));
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
  const originPort = (origin.address() as net.AddressInfo).port;
  const proxy = CASE === 'baseline' ? await baseline(originPort) : await edge(originPort);
  try {
    log('warm-up');
    for (let i = 0; i < N; i++) await get(proxy.port);
    await run('callgrind_control', ['-d', 'warm-up', String(proxy.child.pid)]);
    log(`measuring ${N} requests, case ${CASE}`);
    const statuses: Record<number, number> = {};
    for (let i = 0; i < N; i++) {
      const status = await get(proxy.port);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    await run('callgrind_control', ['-d', 'measured', String(proxy.child.pid)]);
    const out = await readFile(`${OUT}.2`, 'utf8');
    const total = Number(/^(?:summary|totals): (\d+)/m.exec(out)?.[1] ?? Number.NaN);
    log(`statuses ${JSON.stringify(statuses)}; ${Math.round(total / N)} instructions per request (${OUT}.2)`);
  } finally {
    proxy.child.kill('SIGQUIT');
    await new Promise((r) => proxy.child.once('exit', r));
    origin.close();
    await proxy.cleanup();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`callgrind: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
