/**
 * LuaJIT's trace log of the edge's hot path without the profile's wrappers (`npx tsx
 * bench/edge/jit-log.ts <file>`): the firewall edge with one worker runs each case under wrk with
 * jit.v on, one log per case (<file>.<case>): what compiles, what aborts and why, as in production.
 */
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../apps/edge/test/helpers/net.js';
import { removeDir } from '../../apps/edge/test/helpers/real-control-plane.js';
import { FLOOD_HOST, startFirewallEdge } from './firewall-edge.js';
import { startNginx, wrk } from './load.js';

async function main() {
  const file = process.argv[2];
  if (!file) throw new Error('usage: jit-log.ts <file>');
  const work = await mkdtemp(path.join(tmpdir(), 'rampart-jit-log-'));
  await chmod(work, 0o755);
  const originPort = await freePort();
  const stopOrigin = await startNginx(
    path.join(work, 'origin'),
    1,
    `  access_log off;\n  server { listen 127.0.0.1:${originPort}; location / { return 200 "origin\\n"; } }`,
  );
  const fw = await startFirewallEdge(1, originPort, 1, 1000, (i) => `d${i}.bench.example`);
  try {
    const cases: Record<string, { host: string; refused?: boolean }> = {
      no_rules: { host: 'n1.bench.example' },
      firewall: { host: 'd1.bench.example' },
      firewall_waf: { host: 'w1.bench.example' },
      flood: { host: FLOOD_HOST, refused: true },
    };
    for (const [label, c] of Object.entries(cases)) {
      const script = path.join(work, `${label}.lua`);
      await writeFile(script, `wrk.headers["Host"] = "${c.host}"\n`);
      // A fresh worker per case: its traces are the case's alone.
      await fw.reload({ initLua: `require("jit.v").start(${JSON.stringify(`${file}.${label}`)})` });
      const r = await wrk(fw.edge.httpPort, script, c.refused, Number(process.env.JIT_SECONDS ?? 3));
      process.stdout.write(`${label}: ${Math.round(r.rps)} rps\n`);
    }
  } finally {
    await fw.edge.stop();
    await stopOrigin();
    await removeDir(work);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`jit-log: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
