import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PushResult, pushDataPlane } from '../../src/data-plane/push.js';
import type { DataPlane } from '../../src/data-plane/schema.js';
import { ensureDefaultCertificate } from '../../src/nginx/default-certificate.js';
import { NginxProcess } from '../../src/nginx/nginx-process.js';
import { type NginxSettingsInput, type RenderTestHooks, renderNginxConf } from '../../src/nginx/render.js';
import { freePort } from './net.js';

export const LUA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../lua');

export interface Edge {
  prefix: string;
  nginx: NginxProcess;
  settings: NginxSettingsInput;
  httpPort: number;
  httpsPort: number;
  adminPort: number;
  push(doc: DataPlane): Promise<PushResult>;
  /** A raw PUT /config (for documents the agent would never send). */
  putRaw(body: string): Promise<{ status: number; body: Record<string, unknown> }>;
  admin(path: string): Promise<{ status: number; body: Record<string, unknown> }>;
  render(overrides?: Partial<NginxSettingsInput>, hooks?: RenderTestHooks): string;
  errorLog(): Promise<string>;
  accessLog(): Promise<string>;
  stop(): Promise<void>;
}

async function adminCall(port: number, method: string, urlPath: string, body?: string) {
  const response = await fetch(`http://127.0.0.1:${port}${urlPath}`, {
    method,
    body: body ?? null,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Starts a real nginx under a fresh prefix in /tmp. The prefix is made 0755: the workers run as
 * `nobody` (root master, no `user` directive) and must reach the logs and temp directories.
 */
export async function startEdge(
  overrides: Partial<NginxSettingsInput> = {},
  hooks: RenderTestHooks = {},
): Promise<Edge> {
  const prefix = await mkdtemp('/tmp/rampart-edge-');
  await chmod(prefix, 0o755);
  const [httpPort, httpsPort, adminPort] = [await freePort(), await freePort(), await freePort()];
  const defaultCertificate = await ensureDefaultCertificate(path.join(prefix, 'certs'));
  const settings: NginxSettingsInput = {
    prefix,
    httpPorts: [httpPort],
    httpsPorts: [httpsPort],
    http2: true,
    adminPort,
    listenAddress: '127.0.0.1',
    workerProcesses: 2,
    luaDir: LUA_DIR,
    defaultCertificate,
    errorLogPath: path.join(prefix, 'logs/error.log'),
    accessLogPath: path.join(prefix, 'logs/access.log'),
    ...overrides,
  };
  const nginx = new NginxProcess({ prefix, errorLogPath: settings.errorLogPath });
  const render = (more: Partial<NginxSettingsInput> = {}, moreHooks: RenderTestHooks = hooks) =>
    renderNginxConf({ ...settings, ...more }, moreHooks);
  try {
    await nginx.start(render());
  } catch (err) {
    await nginx.stop();
    await rm(prefix, { recursive: true, force: true });
    throw err;
  }
  return {
    prefix,
    nginx,
    settings,
    httpPort,
    httpsPort,
    adminPort,
    push: (doc) => pushDataPlane(adminPort, doc),
    putRaw: (body) => adminCall(adminPort, 'PUT', '/config', body),
    admin: (urlPath) => adminCall(adminPort, 'GET', urlPath),
    render,
    errorLog: () => readFile(settings.errorLogPath, 'utf8'),
    accessLog: () => readFile(settings.accessLogPath, 'utf8'),
    stop: async () => {
      await nginx.stop();
      await rm(prefix, { recursive: true, force: true });
    },
  };
}
