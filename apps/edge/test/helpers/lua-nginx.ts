import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { MODULES_DIR } from '../../src/nginx/render.js';
import { freePort } from './net.js';

const run = promisify(execFile);

export interface LuaNginx {
  /** The loopback port the one server listens on. */
  port: number;
  /** Stops nginx and removes its prefix. */
  stop(): Promise<void>;
  /** The end of nginx's error log (why a request failed). */
  errorLog(): Promise<string>;
}

/**
 * A bare nginx with the Lua module and one server on a free loopback port, for running a piece of
 * Lua where it runs at the edge (inside a worker), without the edge's own config. `http` goes into
 * the http block before the server, `server` into the server block (its locations). The prefix is
 * made 0755: the workers run as `nobody` and must reach the logs and temp directories.
 */
export async function startLuaNginx(name: string, blocks: { http?: string; server: string }): Promise<LuaNginx> {
  const prefix = await mkdtemp(`/tmp/rampart-${name}-`);
  await chmod(prefix, 0o755);
  await mkdir(path.join(prefix, 'logs'));
  const port = await freePort();
  await writeFile(
    path.join(prefix, 'nginx.conf'),
    `load_module ${MODULES_DIR}/ndk_http_module.so;
load_module ${MODULES_DIR}/ngx_http_lua_module.so;
worker_processes 1;
pid ${prefix}/logs/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${prefix}/tmp-body; proxy_temp_path ${prefix}/tmp-proxy;
  fastcgi_temp_path ${prefix}/tmp-fcgi; uwsgi_temp_path ${prefix}/tmp-uwsgi; scgi_temp_path ${prefix}/tmp-scgi;
${blocks.http ?? ''}
  server {
    listen 127.0.0.1:${port};
${blocks.server}
  }
}
`,
  );
  const nginx = (...more: string[]) =>
    run('/usr/sbin/nginx', ['-p', prefix, '-c', `${prefix}/nginx.conf`, '-e', `${prefix}/logs/error.log`, ...more]);
  try {
    await nginx();
  } catch (err) {
    await rm(prefix, { recursive: true, force: true });
    throw err;
  }
  return {
    port,
    errorLog: async () => (await readFile(path.join(prefix, 'logs/error.log'), 'utf8').catch(() => '')).slice(-4000),
    stop: async () => {
      await nginx('-s', 'stop').catch(() => undefined);
      await rm(prefix, { recursive: true, force: true });
    },
  };
}
