import { stat } from 'node:fs/promises';
import path from 'node:path';
import { type ControlPlane, startControlPlane, waitUntil } from '../apps/edge/test/helpers/real-control-plane.js';
import { log } from './edge/load.js';

/**
 * Starts the benches' control plane (the built bundle) in `dir` with `env`, and pushes its stop onto
 * `stops`. BENCH_CP_PROFILE=<dir>: it writes a V8 CPU profile there when it stops (a profile takes a
 * while to write: it is given a minute before the stop's kill). BENCH_CP_NODE_OPTIONS: more of Node's
 * options for it (e.g. --perf-basic-prof).
 */
export async function startBenchControlPlane(
  dir: string,
  env: Record<string, string>,
  stops: (() => Promise<void>)[],
): Promise<ControlPlane> {
  const cpProfile = process.env.BENCH_CP_PROFILE;
  const cp = await startControlPlane(dir, env, [
    ...(cpProfile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(cpProfile)}`] : []),
    ...(process.env.BENCH_CP_NODE_OPTIONS?.split(/\s+/).filter(Boolean) ?? []),
  ]);
  stops.push(async () => {
    if (cpProfile) {
      log('stopping the control plane (its profile ends here)');
      process.kill(cp.pid, 'SIGTERM');
      await waitUntil(async () => !(await stat(`/proc/${cp.pid}`).catch(() => null)), 60_000, 200).catch(() => {});
    }
    await cp.stop();
  });
  return cp;
}
