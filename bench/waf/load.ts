// bench:waf's CPU measures: nginx's CPU (master + workers) from /proc around a load, and the loads
// (N requests over the bench's connections; an ordinary 1 KB form, a form at the inspection limit).
import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import { WAF_BODY_LIMIT_BYTES } from '@rampart/contract';
import { TEST_HOST } from './targets.js';
import { round } from './verdicts.js';
import { pool } from './wire.js';

export const CONCURRENCY = Math.max(1, Number(process.env.BENCH_CONCURRENCY ?? 8));
export const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 10_000);
/** Ticks per second of utime/stime in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

interface CpuReading {
  /** utime + stime of the master and its workers, in clock ticks (1/100 s). */
  ticks: number;
  /** Their time on CPU from /proc/<pid>/schedstat, in nanoseconds (the same, without tick rounding). */
  ns: number;
}

async function nginxCpu(master: number): Promise<CpuReading> {
  const reading = { ticks: 0, ns: 0 };
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid … utime(14) stime(15): comm may hold spaces, so split after ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.length < 13) continue;
    if (Number(entry) !== master && Number(fields[1]) !== master) continue;
    reading.ticks += Number(fields[11]) + Number(fields[12]);
    const sched = await readFile(`/proc/${entry}/schedstat`, 'utf8').catch(() => '');
    reading.ns += Number(sched.split(' ')[0]) || 0;
  }
  return reading;
}

interface CpuMeasure<T> {
  result: T;
  /** µs of nginx CPU (utime + stime) per request, for n requests. */
  us: (n: number) => number;
  /** The same from schedstat (finer than the 10 ms ticks). */
  schedUs: (n: number) => number;
  ticks: number;
}

export async function measureCpu<T>(master: number, requests: () => Promise<T>): Promise<CpuMeasure<T>> {
  const before = await nginxCpu(master);
  const result = await requests();
  // Let workers finish the last requests' logging before reading.
  await new Promise((r) => setTimeout(r, 200));
  const after = await nginxCpu(master);
  const ticks = after.ticks - before.ticks;
  return {
    result,
    ticks,
    us: (n: number) => round((ticks * 1e6) / CLOCK_TICKS / Math.max(1, n), 1),
    schedUs: (n: number) => round((after.ns - before.ns) / 1e3 / Math.max(1, n), 1),
  };
}

/**
 * N requests over CONCURRENCY connections, kept alive or one per request (`Connection: close`);
 * answers the count of each status.
 */
export async function repeat(
  port: number,
  n: number,
  keepAlive: boolean,
  method: string,
  urlPath: string,
  body?: string,
) {
  const agent = new http.Agent({ keepAlive, maxSockets: CONCURRENCY });
  const statuses: Record<string, number> = {};
  try {
    await pool(
      Array.from({ length: n }, (_, i) => i),
      CONCURRENCY,
      () =>
        new Promise<void>((resolve) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              method,
              path: urlPath,
              agent,
              headers: {
                host: TEST_HOST,
                'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
                accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
                'accept-language': 'en-US,en;q=0.5',
                ...(body
                  ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) }
                  : {}),
              },
              timeout: TIMEOUT_MS,
            },
            (res) => {
              res.resume();
              res.on('end', () => {
                statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
                resolve();
              });
            },
          );
          req.on('timeout', () => req.destroy(new Error('timeout')));
          req.on('error', () => {
            statuses.error = (statuses.error ?? 0) + 1;
            resolve();
          });
          req.end(body);
        }),
    );
  } finally {
    agent.destroy();
  }
  return statuses;
}

/** A 1 KB urlencoded form of ordinary fields (a sign-up / checkout shape). */
export function formBody(): string {
  const fields = [
    'first_name=Marie',
    'last_name=Dupont',
    'email=marie.dupont%40example.com',
    'phone=%2B33%206%2012%2034%2056%2078',
    'address=12%20rue%20des%20Lilas',
    'city=Lyon',
    'postcode=69003',
    'country=FR',
    'newsletter=on',
    'comment=Please%20leave%20the%20parcel%20with%20the%20neighbour%20if%20nobody%20is%20at%20home',
  ];
  let s = fields.join('&');
  for (let i = 0; s.length < 1024; i++) s += `&item_${i}=sku-${1000 + i}`;
  return s.slice(0, 1024).replace(/[&=]$/, 'x');
}

/**
 * A urlencoded form just under WAF_BODY_LIMIT_BYTES: ordinary fields, or (pathological) values made
 * only of bytes the detectors look at (quotes, brackets, operators, "<", "%"), which no pre-filter
 * can skip.
 */
export function bigForm(pathological: boolean): string {
  const limit = WAF_BODY_LIMIT_BYTES - 1024;
  // every value distinct (the engine reads a repeated value once)
  const unit = (i: number) =>
    pathological ? `f=${encodeURIComponent(`'(<a/="\`;|&\${${i}`)}&` : `field=some+ordinary+text+value+${i}&`;
  let body = '';
  for (let i = 0; body.length < limit; i++) body += unit(i);
  return body.slice(0, limit).replace(/&[^&]*$/, '');
}
