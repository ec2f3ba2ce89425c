// Bundles the server (and the workspace's TypeScript packages it imports) into dist/main.js, what
// `npm start` runs, and dist/start.js, its start function for a test harness that starts the built
// server with options of its own (e2e/support/control-plane-entry.mjs). npm packages stay external
// and load from node_modules at run time.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts', 'src/start.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'info',
  plugins: [
    {
      name: 'externalize-npm-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@rampart/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
