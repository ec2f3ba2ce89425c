import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { EdgeSnapshot } from '@rampart/contract';
import { type PushResult, pushDataPlane } from '../data-plane/push.js';
import { type CertificatePaths, ensureDefaultCertificate } from '../nginx/default-certificate.js';
import type { NginxProcess } from '../nginx/nginx-process.js';
import { type NginxSettingsInput, renderNginxConf } from '../nginx/render.js';

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
  /** Loopback port of nginx's admin server (data-plane pushes). */
  adminPort: number;
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
      adminPort: this.options.adminPort,
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
      await nginx.start(conf);
      action = 'started';
    } else if ((await this.activeConf()) !== conf) {
      await nginx.reload(conf);
      action = 'reloaded';
    }
    if (action !== 'none') this.nginxChanged = true;
    await this.track();
    const push = await pushDataPlane(this.options.adminPort, snapshot.dataPlane);
    return { nginx: action, push };
  }

  /** Remembers nginx's master and workers (the supervisor kills those a dead master left). */
  async track(): Promise<void> {
    const { nginx } = this.options;
    const master = await nginx.masterPid();
    if (master !== null) this.trackedPids = new Set([master, ...(await nginx.childPids())]);
  }
}

/** The log fields for an apply's result. */
export function applySummary(result: ApplyResult): Record<string, unknown> {
  return {
    nginx: result.nginx,
    ...(result.push ? { generation: result.push.generation, domains: result.push.domains } : {}),
  };
}
