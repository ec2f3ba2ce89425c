// Bundles the edge agent into dist/rampart-edge.js: one file with its npm dependencies (zod) and
// the workspace's TypeScript packages inlined, so a node needs only Node.js, this file and lua/
// (the bundle finds ../lua next to dist/). Node 18 is the target: Debian 12's nodejs package.
import { chmod } from 'node:fs/promises';
import { build } from 'esbuild';

const outfile = process.argv[2] ?? 'dist/rampart-edge.js';

await build({
  entryPoints: ['src/agent/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node18',
  sourcemap: true,
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'info',
});
await chmod(outfile, 0o755);
