import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const CONSOLE_TREES = /^\/(user|client|admin)(\/|$)/;

/**
 * Serves the console's production build at `/`. A GET for a page path (no file extension) that
 * is not a file answers with index.html (compressed as the browser accepts, like every file) so the router in the browser resolves `/user/...`,
 * `/client/...`, `/admin/...` and its own 404 page. Paths under /api never fall back.
 */
export async function serveConsole(app: FastifyInstance, consoleDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: consoleDir,
    prefix: '/',
    index: ['index.html'],
    wildcard: true,
    // The build writes brotli and gzip siblings of its text files (vite.config.ts `precompress`):
    // the one the browser accepts is sent as it is, nothing is compressed per request.
    preCompressed: true,
    // Hashed asset names never change; index.html must be revalidated so a new release is picked up.
    setHeaders(reply, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

/** Whether an unmatched request should get the console's index.html. */
export function wantsConsolePage(method: string, url: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const pathname = url.split('?')[0] ?? '';
  if (pathname.startsWith('/api/')) return false;
  if (CONSOLE_TREES.test(pathname) || pathname === '/' || pathname === '/404') return true;
  return !path.posix.basename(pathname).includes('.');
}
