import { readFile, rm } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import type { EdgeSnapshot } from '@rampart/contract';
import { type AdminEndpoint, documentHash } from '../data-plane/admin-client.js';
import { activeDataPlane, type PushResult, pushDataPlane } from '../data-plane/push.js';
import { type CertificatePaths, ensureDefaultCertificate } from '../nginx/default-certificate.js';
import type { NginxProcess } from '../nginx/nginx-process.js';
import { type NginxSettingsInput, renderNginxConf } from '../nginx/render.js';
import { alive } from './processes.js';

/**
 * The apply step: renders a snapshot's listen settings (ports through the port map, http2), nginx
 * settings and layer-4 stream ports (also through the port map) into nginx.conf with render.ts;
 * when the text differs from the active config, or nginx is not running, nginx is reloaded (nginx
 * -t first; a refused config leaves the old one running) or started. Then the data plane is pushed
 * into Lua shared memory. A data-plane-only change never reloads nginx. Callers hold the agent's
 * apply lock.
 */

export type NginxAction = 'none' | 'started' | 'reloaded' | 'stopped';

export interface ApplyResult {
  nginx: NginxAction;
  push: PushResult | null;
}

export interface ApplierOptions {
  nginx: NginxProcess;
  /** nginx's prefix directory (in the state directory). */
  prefix: string;
  /** nginx's admin server: its unix socket (in a 0700 directory) and the node's admin secret. */
  admin: AdminEndpoint;
  /** The file nginx's master reads the admin secret from. */
  adminSecretFile: string;
  /** Addresses the agent reports (--ips); with the interfaces', the node's own addresses. */
  ips: readonly string[];
  /** Absolute path of the Lua package directory (holds `rampart/`). */
  luaDir: string;
  /** Snapshot listen port → local port (ports not in the map are used as they are). */
  portMap: ReadonlyMap<number, number>;
  /** IP literal the public servers bind to; undefined = every address. */
  listenAddress?: string | undefined;
  workerProcesses: 'auto' | number;
  /** The registered node's id (request ids start with `n<id>`); null before registration. */
  nodeId: () => number | null;
}

export class SnapshotApplier {
  private defaultCertificate: CertificatePaths | null = null;
  /** The master and workers seen last: a master killed with SIGKILL leaves its workers on the ports. */
  trackedPids = new Set<number>();
  private trackedMaster: number | null = null;
  /** Set once an apply started or reloaded nginx (decides whether a failure rolls back); reset by the caller. */
  nginxChanged = false;

  constructor(private readonly options: ApplierOptions) {}

  /** Makes the default certificate (served for names no certificate covers). */
  async prepare(): Promise<void> {
    this.defaultCertificate = await ensureDefaultCertificate(path.join(this.options.prefix, 'certs'));
  }

  /** nginx settings for a snapshot; null when it listens on no port (nothing to run). */
  settingsFor(snapshot: EdgeSnapshot): NginxSettingsInput | null {
    const { listen } = snapshot;
    if (listen.httpPorts.length + listen.httpsPorts.length === 0) return null;
    const map = (p: number) => this.options.portMap.get(p) ?? p;
    const { prefix, nginx } = this.options;
    if (!this.defaultCertificate) throw new Error('agent not started');
    const nodeId = this.options.nodeId();
    return {
      prefix,
      httpPorts: listen.httpPorts.map(map),
      httpsPorts: listen.httpsPorts.map(map),
      http2: listen.http2,
      adminSocket: this.options.admin.socketPath,
      adminSecretFile: this.options.adminSecretFile,
      ownAddresses: ownAddresses(this.options.ips),
      ...(this.options.listenAddress !== undefined ? { listenAddress: this.options.listenAddress } : {}),
      workerProcesses: this.options.workerProcesses,
      luaDir: this.options.luaDir,
      defaultCertificate: this.defaultCertificate,
      errorLogPath: nginx.errorLogPath,
      accessLogPath: path.join(prefix, 'logs/access.log'),
      ...(nodeId !== null ? { requestIdPrefix: `n${nodeId}` } : {}),
      tuning: snapshot.nginx,
      streamPorts: (snapshot.streamPorts ?? []).map((p) => ({ ...p, port: map(p.port) })),
    };
  }

  private async activeConf(): Promise<string | null> {
    try {
      return await readFile(this.options.nginx.currentConfPath, 'utf8');
    } catch {
      return null;
    }
  }

  /**
   * Makes nginx serve `snapshot` (call under the apply lock): start or reload only when the
   * rendered config differs from the active one or nginx is down, then push the data plane.
   */
  async apply(snapshot: EdgeSnapshot): Promise<ApplyResult> {
    const { nginx } = this.options;
    const settings = this.settingsFor(snapshot);
    if (settings === null) {
      if (!(await nginx.isRunning())) return { nginx: 'none', push: null };
      await nginx.stop();
      return { nginx: 'stopped', push: null };
    }
    const conf = renderNginxConf(settings);
    let action: NginxAction = 'none';
    if (!(await nginx.isRunning())) {
      // A master that died (SIGKILL) leaves its socket file behind, and nginx cannot bind over it.
      await rm(this.options.admin.socketPath, { force: true });
      await nginx.start(conf);
      action = 'started';
    } else if ((await this.activeConf()) !== conf) {
      await nginx.reload(conf);
      action = 'reloaded';
    }
    if (action !== 'none') this.nginxChanged = true;
    await this.track(action === 'started');
    const push = await pushDataPlane(this.options.admin, snapshot.dataPlane);
    return { nginx: action, push };
  }

  /**
   * Checks that nginx holds `snapshot`'s data plane: asks the admin endpoint for the active version
   * and content hash and pushes the data plane again when either differs from the snapshot's (a
   * data plane replaced behind the agent's back, or a shared dict that lost it). Answers what it
   * found when it had to push, null when all was well or nginx serves nothing. Call under the lock.
   */
  async verify(snapshot: EdgeSnapshot): Promise<{ found: PushResult | null; push: PushResult } | null> {
    if (this.settingsFor(snapshot) === null || !(await this.options.nginx.isRunning())) return null;
    const found = await activeDataPlane(this.options.admin);
    if (found !== null && found.version === snapshot.dataPlane.version && found.hash === this.expectedHash(snapshot))
      return null;
    const push = await pushDataPlane(this.options.admin, snapshot.dataPlane);
    return { found, push };
  }

  private hashOf: { version: string; hash: string } | null = null;

  /** The content hash of `snapshot`'s data plane (as pushed: its JSON text), kept for the last one. */
  private expectedHash(snapshot: EdgeSnapshot): string {
    if (this.hashOf?.version !== snapshot.version) {
      this.hashOf = { version: snapshot.version, hash: documentHash(JSON.stringify(snapshot.dataPlane)) };
    }
    return this.hashOf.hash;
  }

  /**
   * Remembers nginx's master and workers (the supervisor kills those a dead master left). Just
   * after a start (`started`) the master may not have forked its workers yet: waits up to two
   * seconds for them, or a master killed at once would leave untracked workers on the ports.
   */
  async track(started = false): Promise<void> {
    const { nginx } = this.options;
    const master = await nginx.masterPid();
    if (master === null) return;
    let children = await nginx.childPids();
    const deadline = Date.now() + 2000;
    while (started && children.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      children = await nginx.childPids();
    }
    // The same master: keep the children seen before too (a read between a reload's old and new
    // workers, or a failed `ps`, must not forget them; killNginxLeftovers skips the gone ones).
    const previous = this.trackedMaster === master ? [...this.trackedPids].filter(alive) : [];
    this.trackedMaster = master;
    this.trackedPids = new Set([...previous, master, ...children]);
  }
}

/**
 * The node's own addresses: the ones it reports and every interface address (with no listen
 * address nginx listens on all of them, and no customer origin may be one of them on a listen port).
 */
export function ownAddresses(ips: readonly string[]): string[] {
  const interfaces = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
  return [...new Set([...ips, ...interfaces])].filter((ip) => /^[0-9A-Fa-f:.]+$/.test(ip)).slice(0, 256);
}

/** The log fields for an apply's result. */
export function applySummary(result: ApplyResult): Record<string, unknown> {
  return {
    nginx: result.nginx,
    ...(result.push ? { generation: result.push.generation, domains: result.push.domains } : {}),
  };
}
