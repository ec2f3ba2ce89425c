import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { brotliCompress, constants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Where `npm run dev` sends console API calls: the control plane started by `npm start`. */
const API_TARGET = 'http://127.0.0.1:8080';

/**
 * Vendor code of the first load is grouped into a few long-lived chunks, so that a release that
 * changes only the console's own code keeps the browser's cached React and antd. The groups take
 * only `$initial` modules (those the entry imports statically): antd components and libraries that
 * only lazily loaded pages use (tables, forms, ECharts) stay in those pages' chunks, so the first
 * load carries just what the shell renders. Page code is split per route by the router's `lazy`.
 */
const VENDOR_GROUPS = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/ },
  { name: 'antd', test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+|@babel[\\/]runtime|dayjs)[\\/]/ },
  { name: 'vendor', test: /node_modules[\\/]/ },
];

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|ico|txt|map)$/;

/**
 * Brotli and gzip siblings (`app.js.br`, `app.js.gz`) of every text file of the build, written once
 * at build time at the highest levels; the control plane serves the one the browser accepts
 * (`@fastify/static` `preCompressed`). A file under 1 KiB, or one that would not shrink, has none.
 * The gzip siblings are Zopfli's: a deflate stream every gzip reader takes, about 4% smaller than
 * zlib's level 9 on this build (the first load: 302.8 -> 291.1 kB), worth its seconds because it
 * runs once per build. Browsers get gzip where they do not take brotli (Chromium over plain http).
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  let outDir = 'dist';
  return {
    name: 'rampart-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries
        .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name))
        .map((e) => path.join(e.parentPath, e.name));
      await Promise.all([
        zopfliInThreads(files),
        ...files.map(async (file) => {
          const body = await readFile(file);
          if (body.length < 1024) return;
          const br = await brotli(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          });
          if (br.length < body.length) await writeFile(`${file}.br`, br);
        }),
      ]);
    },
  };
}

/**
 * A worker thread's part of the gzip siblings: Zopfli is WebAssembly that runs on the thread that
 * calls it (brotli runs in libuv's pool), so the files are shared out over one thread per core.
 */
const ZOPFLI_WORKER = `
const { readFileSync, writeFileSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const { gzipAsync } = require(workerData.zopfli);
(async () => {
  for (const file of workerData.files) {
    const body = readFileSync(file);
    if (body.length < 1024) continue;
    const gzipped = await gzipAsync(body, { numiterations: 15 });
    if (gzipped.length < body.length) writeFileSync(file + '.gz', gzipped);
  }
})();
`;

async function zopfliInThreads(files: readonly string[]): Promise<void> {
  const zopfli = createRequire(import.meta.url).resolve('@gfx/zopfli');
  const sized = await Promise.all(files.map(async (file) => ({ file, size: (await readFile(file)).length })));
  // Largest first, each to the least loaded thread.
  const shares = Array.from({ length: Math.max(1, Math.min(availableParallelism(), 4)) }, () => ({
    files: [] as string[],
    size: 0,
  }));
  for (const { file, size } of sized.sort((a, b) => b.size - a.size)) {
    const share = shares.reduce((least, s) => (s.size < least.size ? s : least));
    share.files.push(file);
    share.size += size;
  }
  await Promise.all(
    shares
      .filter((share) => share.files.length > 0)
      .map(
        (share) =>
          new Promise<void>((resolve, reject) => {
            const worker = new Worker(ZOPFLI_WORKER, { eval: true, workerData: { zopfli, files: share.files } });
            worker.once('error', reject);
            worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`zopfli worker exited ${code}`))));
          }),
      ),
  );
}

export default defineConfig({
  base: '/',
  plugins: [react(), precompress()],
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: VENDOR_GROUPS.map((group, index) => ({
            ...group,
            tags: ['$initial' as const],
            priority: VENDOR_GROUPS.length - index,
          })),
        },
      },
    },
  },
});
