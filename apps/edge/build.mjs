// Bundles the edge agent into dist/rampart-edge.js: one file with its npm dependencies (zod) and
// the workspace's TypeScript packages inlined, so a node needs only Node.js, this file and lua/
// (the bundle finds ../lua next to dist/). Node 18 is the target: Debian 12's nodejs package.
//
// The second line names the version (`// rampart-edge-version: X`), so the control plane can tell
// which agent release it serves without running it. RAMPART_EDGE_VERSION builds for another
// version than package.json's (release tests, vendor builds).
import { chmod, readFile } from 'node:fs/promises';
import { build } from 'esbuild';

const outfile = process.argv[2] ?? 'dist/rampart-edge.js';
const pkg = JSON.parse(await readFile(new URL('./package.json', import.meta.url), 'utf8'));
const version = process.env.RAMPART_EDGE_VERSION || pkg.version;
if (!/^[0-9A-Za-z][0-9A-Za-z._-]{0,63}$/.test(version)) throw new Error(`not a release version: ${version}`);

await build({
  entryPoints: ['src/agent/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node18',
  sourcemap: true,
  banner: { js: `#!/usr/bin/env node\n// rampart-edge-version: ${version}` },
  define: { RAMPART_EDGE_BUILD_VERSION: JSON.stringify(version) },
  logLevel: 'info',
});
await chmod(outfile, 0o755);
