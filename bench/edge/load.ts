/** bench:edge's load and process helpers: throw-away nginx instances, wrk, CPU ticks from /proc. */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const NGINX = '/usr/sbin/nginx';
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);

// Each line with the wall clock (ms), so a phase can be found in a control-plane profile (BENCH_CP_PROFILE).
export const log = (msg: string) => process.stderr.write(`bench: [${Date.now()}] ${msg}\n`);

/** A throw-away nginx with its own prefix; `http` is the body of its http block. */
export async function startNginx(dir: string, workers: number, http: string): Promise<() => Promise<void>> {
  await mkdir(path.join(dir, 'logs'), { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  await writeFile(
    conf,
    `worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 4096; }
http {
  client_body_temp_path ${dir}/tmp-body; proxy_temp_path ${dir}/tmp-proxy;
  fastcgi_temp_path ${dir}/tmp-fcgi; uwsgi_temp_path ${dir}/tmp-uwsgi; scgi_temp_path ${dir}/tmp-scgi;
  keepalive_requests 100000;
${http}
}
`,
  );
  await run(NGINX, ['-p', dir, '-c', conf, '-e', `${dir}/logs/error.log`]);
  return async () => {
    await run(NGINX, ['-p', dir, '-c', conf, '-e', `${dir}/logs/error.log`, '-s', 'quit']).catch(() => undefined);
  };
}

/** A GET of nginx's admin endpoint on its unix socket, with the node's admin secret: the body. */
export function adminGet(socketPath: string, urlPath: string, secret: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: urlPath, headers: { authorization: `Bearer ${secret}` } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () =>
        res.statusCode === 200 ? resolve(body) : reject(new Error(`${urlPath}: ${res.statusCode} ${body}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

export function get(port: number, host: string, method = 'GET'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', method, headers: { host }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(2000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

export interface WrkResult {
  rps: number;
  p99ms: number;
  errors: number;
}

/**
 * A wrk run of SECONDS at CONNECTIONS connections. `refused`: every answer is expected to be an
 * error status (a flood's 403s), so `errors` counts the 2xx/3xx answers instead of the others.
 */
export async function wrk(port: number, script: string, refused = false, seconds = SECONDS): Promise<WrkResult> {
  const { stdout } = await run(
    'wrk',
    ['-t2', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', '-s', script, `http://127.0.0.1:${port}/`],
    { maxBuffer: 1 << 20 },
  );
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)\b/.exec(stdout);
  const unit = p99?.[2] === 'us' ? 0.001 : p99?.[2] === 's' ? 1000 : 1;
  const total = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const unexpected = refused ? total - non2xx : non2xx;
  const errors = unexpected + (socketErrors ? socketErrors.slice(1).reduce((n, x) => n + Number(x), 0) : 0);
  if (!Number.isFinite(rps) || !p99) throw new Error(`cannot read wrk output:\n${stdout}`);
  return { rps, p99ms: Number(p99[1]) * unit, errors };
}

/** CPU ticks (user + system) of a process and all its descendants, from /proc. */
export async function treeTicks(root: number): Promise<number> {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid … utime(14) stime(15) cutime(16) cstime(17): comm may hold spaces, so
    // split after ')'. cutime and cstime are the children that exited and were reaped (PostgreSQL's
    // backends come and go: without them a tree's count could fall between two reads).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.length < 15) continue;
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    stats.set(Number(entry), { ppid: Number(fields[1]), ticks });
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = stats.get(p)?.ppid ?? 0, hops++) if (p === root) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, s] of stats) if (inTree(pid)) ticks += s.ticks;
  return ticks;
}

/** Busy CPU ticks of the whole machine (every field of /proc/stat's cpu line but idle and iowait). */
export async function machineTicks(): Promise<number> {
  const [cpu] = (await readFile('/proc/stat', 'utf8')).split('\n');
  const f = (cpu ?? '').trim().split(/\s+/).slice(1).map(Number);
  return f.reduce((a, b) => a + b, 0) - (f[3] ?? 0) - (f[4] ?? 0);
}

export function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)] ?? Number.NaN;
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
