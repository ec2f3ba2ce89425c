/**
 * bench:edge's per-phase Lua cost (`lua_us_per_request`): the firewall edge is reloaded with
 * rampart.profile on (its init hook sets RAMPART_PROFILE; the agent never does), and each case is
 * run once more under wrk: the CPU nanoseconds its Lua took per phase (thread CPU clock around each
 * entry point, less the clock reads' own cost), divided by the requests of the run. Measured apart
 * from the throughput rounds, which run without the wrappers.
 */
import { request } from 'node:http';
import type { RenderTestHooks } from '../../apps/edge/src/nginx/render.js';

export const PROFILE_PATH = '/rampart-bench-profile';

/** The render hooks of a profiled edge: the switch, and a location answering the sums. */
export const profileHooks: RenderTestHooks = {
  // BENCH_JIT_LOG=<file>: LuaJIT's trace log (jit.v: what compiles, what aborts and why) of the
  // profiled runs, written by the workers through the master's file.
  initLua: `RAMPART_PROFILE = true${
    process.env.BENCH_JIT_LOG ? `; require("jit.v").start(${JSON.stringify(process.env.BENCH_JIT_LOG)})` : ''
  }`,
  serverSnippet: `location = ${PROFILE_PATH} { access_log off; content_by_lua_block { require("rampart.profile").read() } }`,
};

type Sums = Record<string, { ns: number; n: number }> & { overhead_ns?: unknown };

export function readProfile(
  port: number,
): Promise<{ overhead: number; phases: Record<string, { ns: number; n: number }> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: PROFILE_PATH, headers: { host: 'profile.bench.example' } },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`profile: ${res.statusCode} ${body}`));
          const { overhead_ns, ...phases } = JSON.parse(body) as Sums;
          resolve({ overhead: Number(overhead_ns), phases: phases as Record<string, { ns: number; n: number }> });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * µs of Lua CPU per request by phase between two reads; `requests` is the router's calls (every
 * request runs it once). `total` sums the top-level phases (not the nested ones, "a.b", which are
 * part of their phase "a").
 */
export function perRequest(
  before: Awaited<ReturnType<typeof readProfile>>,
  after: Awaited<ReturnType<typeof readProfile>>,
): Record<string, number> {
  const requests = (after.phases.rewrite?.n ?? 0) - (before.phases.rewrite?.n ?? 0);
  const out: Record<string, number> = { requests, clock_read_ns: Math.round(after.overhead) };
  const calls = (phase: string) => (after.phases[phase]?.n ?? 0) - (before.phases[phase]?.n ?? 0);
  let total = 0;
  for (const [phase, sum] of Object.entries(after.phases)) {
    const was = before.phases[phase] ?? { ns: 0, n: 0 };
    if (calls(phase) <= 0 || requests <= 0) continue;
    // A measure counts one clock read of its own; a phase also holds its nested measures' two each.
    const nested = Object.keys(after.phases)
      .filter((p) => p.startsWith(`${phase}.`))
      .reduce((n, p) => n + calls(p), 0);
    const ns = sum.ns - was.ns - (calls(phase) + 2 * nested) * after.overhead;
    const us = Math.round((ns / requests / 1000) * 100) / 100;
    out[phase] = us;
    if (!phase.includes('.')) total += us;
  }
  out.total = Math.round(total * 100) / 100;
  return out;
}
