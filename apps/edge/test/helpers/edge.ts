import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AdminEndpoint, adminRequest } from '../../src/data-plane/admin-client.js';
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
  /** nginx's admin server: its unix socket and the secret (as the agent has them). */
  adminEndpoint: AdminEndpoint;
  push(doc: DataPlane): Promise<PushResult>;
  /** A raw PUT /config (for documents the agent would never send). */
  putRaw(body: string): Promise<{ status: number; body: Record<string, unknown> }>;
  admin(
    path: string,
    method?: 'GET' | 'PUT' | 'POST' | 'PATCH',
    body?: string,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  render(overrides?: Partial<NginxSettingsInput>, hooks?: RenderTestHooks): string;
  errorLog(): Promise<string>;
  accessLog(): Promise<string>;
  stop(): Promise<void>;
}

export async function adminCall(
  endpoint: AdminEndpoint,
  method: 'GET' | 'PUT' | 'POST' | 'PATCH',
  urlPath: string,
  body?: string,
) {
  const answer = await adminRequest(endpoint, method, urlPath, body);
  return { status: answer.status, body: JSON.parse(answer.text) as Record<string, unknown> };
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
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  // As the agent keeps them: the socket in a 0700 directory, the secret in a 0600 file.
  await mkdir(path.join(prefix, 'admin'), { mode: 0o700 });
  const adminEndpoint: AdminEndpoint = {
    socketPath: path.join(prefix, 'admin/admin.sock'),
    secret: randomBytes(32).toString('hex'),
  };
  const adminSecretFile = path.join(prefix, 'admin.secret');
  await writeFile(adminSecretFile, `${adminEndpoint.secret}\n`, { mode: 0o600 });
  const defaultCertificate = await ensureDefaultCertificate(path.join(prefix, 'certs'));
  const settings: NginxSettingsInput = {
    prefix,
    httpPorts: [httpPort],
    httpsPorts: [httpsPort],
    http2: true,
    adminSocket: adminEndpoint.socketPath,
    adminSecretFile,
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
    adminEndpoint,
    push: (doc) => pushDataPlane(adminEndpoint, doc),
    putRaw: (body) => adminCall(adminEndpoint, 'PUT', '/config', body),
    admin: (urlPath, method = 'GET', body) => adminCall(adminEndpoint, method, urlPath, body),
    render,
    errorLog: () => readFile(settings.errorLogPath, 'utf8'),
    accessLog: () => readFile(settings.accessLogPath, 'utf8'),
    stop: async () => {
      await nginx.stop();
      await rm(prefix, { recursive: true, force: true });
    },
  };
}
