import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_BASE } from '@rampart/contract';
import { dataDirFromTemplate } from './control-plane-template.js';

/**
 * The real control plane as `npm start` runs it (apps/server/dist/main.js, embedded PGlite in a
 * fresh data directory), driven through its HTTP API the way the console does. Shared by the
 * whole-chain test and `npm run bench:edge`; both need `npm run build` first.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../..');
export const SERVER_BUNDLE = path.join(ROOT, 'apps/server/dist/main.js');
export const PASSWORD = 'chain test password 42';

export interface ControlPlane {
  readonly url: string;
  /** The process (the bench pauses it with SIGSTOP while it measures the edge alone). */
  readonly pid: number;
  readonly dataDir: string;
  stop(): Promise<void>;
  /** Kills it at once (SIGKILL): no graceful shutdown, as a crash. */
  kill(): Promise<void>;
  /** Stops it (if still running) and removes its data directory: a test file's teardown. */
  destroy(): Promise<void>;
}

/** `env` adds settings (the upgrade test's version and agent release directory). */
export async function startControlPlane(
  dataDir?: string,
  env: Record<string, string> = {},
  /** Node's own options before the bundle (the bench's `--cpu-prof`). */
  nodeArgs: readonly string[] = [],
): Promise<ControlPlane> {
  const dir = dataDir ?? (await newDataDir(env));
  const child = spawn(process.execPath, [...nodeArgs, SERVER_BUNDLE], {
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      LOG_LEVEL: 'warn',
      RAMPART_INIT_PASSWORD: PASSWORD,
      // Test domains are served without proof of control (the server's tests cover the proof).
      RAMPART_DOMAIN_PROOF: '0',
      RAMPART_ALLOW_PRIVATE_ORIGINS: '1',
      RAMPART_ALLOW_PRIVATE_TARGETS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`control plane did not start in 60 s:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Rampart control plane: (http:\/\/\S+?)\//.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        child.off('exit', onExit);
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        // Keep draining (a child whose pipe fills up blocks on its next write) into its data
        // directory, where a failed bench run's files are kept (LOG_LEVEL warn: its warnings and errors).
        const log = createWriteStream(path.join(dir, 'output.log'), { flags: 'a' });
        log.on('error', () => {});
        log.write(out);
        child.stdout?.pipe(log, { end: false });
        child.stderr?.pipe(log, { end: false });
        child.once('exit', () => log.end());
        resolve(m[1]);
      }
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`control plane exited with ${code}:\n${out}`));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
  const stop = () => stopProcess(child);
  return {
    url,
    pid: child.pid ?? 0,
    dataDir: dir,
    stop,
    kill: () => stopProcess(child, 'SIGKILL'),
    destroy: async () => {
      await stop();
      await removeDir(dir);
    },
  };
}

/** Settings read by the running process only: a start with them may begin from the template. */
const RUNTIME_ONLY = new Set(['PORT', 'RAMPART_TRAFFIC_CHECK_TICK_MS']);

/**
 * A new data directory for a first start: a copy of the template a first start left (see
 * control-plane-template.ts) when `env` sets only what the running process reads; an empty one,
 * which the start makes its first, when it sets more (the upgrade chain's version and release
 * directory: the start with them is then the first one, as it asked).
 */
async function newDataDir(env: Record<string, string>): Promise<string> {
  if (Object.keys(env).some((name) => !RUNTIME_ONLY.has(name))) return mkdtemp(path.join(tmpdir(), 'rampart-cp-'));
  return dataDirFromTemplate(SERVER_BUNDLE, PASSWORD, async (into) => {
    const first = await startControlPlane(into);
    await first.stop();
  });
}

export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** A signed-in console session of one tier, calling `/api/v1/...` with JSON. */
export class ApiSession {
  private constructor(
    private readonly base: string,
    private token: string,
    private readonly tier: 'client' | 'user',
    private readonly account: string,
  ) {}

  static async signIn(cp: { url: string }, tier: 'client' | 'user', account: string = tier): Promise<ApiSession> {
    return new ApiSession(cp.url, await ApiSession.accessToken(cp.url, tier, account), tier, account);
  }

  private static async accessToken(base: string, tier: 'client' | 'user', account: string): Promise<string> {
    const res = await fetch(`${base}${API_BASE}/${tier}/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account, password: PASSWORD }),
    });
    const body = (await res.json()) as { data?: { accessToken?: string } };
    if (!body.data?.accessToken) throw new Error(`sign-in as ${tier} failed: ${JSON.stringify(body)}`);
    return body.data.accessToken;
  }

  /**
   * Calls the API and answers `data`; any non-2xx reply throws with its body. An access token that
   * expired (101014: a long benchmark outlives it) is replaced by signing in again, once.
   */
  async call<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
    try {
      return await this.callOnce<T>(method, url, body);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.includes('"code":101014')) throw err;
      this.token = await ApiSession.accessToken(this.base, this.tier, this.account);
      return this.callOnce<T>(method, url, body);
    }
  }

  private async callOnce<T>(method: string, url: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.base}${API_BASE}/${url}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 500)}`);
    const type = res.headers.get('content-type') ?? '';
    return (type.includes('json') ? (JSON.parse(text) as { data: T }).data : text) as T;
  }

  /** Sends form data (a file upload) and answers `data`; any non-2xx reply throws with its body. */
  async upload<T = unknown>(method: string, url: string, form: FormData): Promise<T> {
    const res = await fetch(`${this.base}${API_BASE}/${url}`, {
      method,
      headers: { authorization: `Bearer ${this.token}` },
      body: form,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 500)}`);
    return (JSON.parse(text) as { data: T }).data;
  }
}

export interface OperatorSetup {
  readonly operator: ApiSession;
  readonly customer: ApiSession;
  readonly zoneId: number;
  readonly groupId: number;
  readonly siteId: number;
  /** The product and the root customer the site was made with (the bench makes more sites). */
  readonly productId: number;
  readonly userId: number;
  readonly joinToken: string;
}

/** Zone, layer-7 group, product and a site for the root customer; the join token for nodes. */
export async function setUpOperator(cp: { url: string }): Promise<OperatorSetup> {
  const operator = await ApiSession.signIn(cp, 'client');
  const zone = await operator.call<{ id: number }>('POST', 'client/zone', { name: 'Loopback' });
  const group = await operator.call<{ id: number }>('POST', `client/zone/${zone.id}/group`, {
    name: 'web',
    portType: 7,
  });
  const product = await operator.call<{ id: number }>('POST', 'client/product', {
    name: 'CDN',
    portType: 7,
    mainGroupIDs: [group.id],
  });
  const users = await operator.call<{ id: number; account: string }[]>('GET', 'client/accounts?name=user');
  const user = users.find((u) => u.account === 'user');
  if (!user) throw new Error('no root customer account');
  const site = await operator.call<{ siteID: number }>('POST', 'client/site', {
    siteName: 'shop',
    userID: user.id,
    productID: product.id,
  });
  const info = await operator.call<string>('GET', 'client/node-info');
  const joinToken = /^join_token=(.*)$/m.exec(info)?.[1];
  if (!joinToken) throw new Error(`no join token in ${info}`);
  const customer = await ApiSession.signIn(cp, 'user');
  return {
    operator,
    customer,
    zoneId: zone.id,
    groupId: group.id,
    siteId: site.siteID,
    productId: product.id,
    userId: user.id,
    joinToken,
  };
}

/**
 * The built control plane (fails at once when `npm run build` has not made it) with an operator's
 * setup (setUpOperator). `env` as for startControlPlane.
 */
export async function startOperatorChain(
  env: Record<string, string> = {},
): Promise<{ cp: ControlPlane; setup: OperatorSetup }> {
  if (!existsSync(SERVER_BUNDLE)) throw new Error(`${SERVER_BUNDLE} is missing: run npm run build first`);
  const cp = await startControlPlane(undefined, env);
  try {
    return { cp, setup: await setUpOperator(cp) };
  } catch (err) {
    await cp.destroy();
    throw err;
  }
}

/** Adds the domain `name` to the customer's site, proxying to an origin on 127.0.0.1:`originPort`. */
export async function addSiteDomain(setup: OperatorSetup, name: string, originPort: number): Promise<void> {
  await setup.customer.call('POST', `user/site/${setup.siteId}/domains`, {
    domains: [{ name, upstreams: [{ ip: '127.0.0.1', port: originPort }] }],
  });
}

/** Waits for a registered node to show as uninitialised and places it in the zone and group. */
export async function initializeFirstNode(setup: OperatorSetup, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const nodes = await setup.operator.call<{ id: number }[]>('GET', 'client/nodes');
    const first = nodes[0];
    if (first) {
      await setup.operator.call('POST', 'client/nodes/initialize', {
        ids: [first.id],
        zoneID: setup.zoneId,
        groupID: setup.groupId,
      });
      return first.id;
    }
    if (Date.now() > deadline) throw new Error('no node registered');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Polls `probe` every `everyMs` until it answers true, up to `timeoutMs`; answers the elapsed ms.
 * On time-out the error carries `explain()` too (what was awaited, the state that kept it back):
 * a failed CI run keeps only the message.
 */
export async function waitUntil(
  probe: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 20,
  explain?: () => string,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await probe().catch(() => false)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) {
      throw new Error(`condition not met within ${timeoutMs} ms${explain ? `: ${explain()}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
