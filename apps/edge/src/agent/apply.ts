import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { EdgeSnapshot, NodeFailedPort } from '@rampart/contract';
import { type PushResult, pushDataPlane } from '../data-plane/push.js';
import { type CertificatePaths, ensureDefaultCertificate } from '../nginx/default-certificate.js';
import { NginxConfigError, type NginxProcess } from '../nginx/nginx-process.js';
import { type NginxSettingsInput, renderNginxConf } from '../nginx/render.js';
import { bindFailures, failure, listenedPorts, type PlannedPort, unbindablePorts } from './port-check.js';

/**
 * The apply step: renders a snapshot's listen settings (ports through the port map, http2), nginx
 * settings and layer-4 stream ports (also through the port map) into nginx.conf with render.ts;
 * when the text differs from the active config, or nginx is not running, nginx is reloaded (nginx
 * -t first; a refused config leaves the old one running) or started. Then the data plane is pushed
 * into Lua shared memory. A data-plane-only change never reloads nginx. Callers hold the agent's
 * apply lock.
 *
 * A port this node cannot listen on (another process holds it) would make nginx refuse the whole
 * config, and with it every tenant's change: before a start or reload each port nginx does not
 * hold yet is tried (port-check.ts) and one that does not bind is left out of the config; should
 * nginx still fail to bind one (taken meanwhile), it is left out and the config rendered again.
 * The ports left out are `failedPorts`, reported with each status. A zone listen port is left out
 * only while another listen port remains.
 */

/** How many times one apply renders again without a port nginx could not bind. */
const BIND_RETRIES = 3;

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
  /** Ports the config nginx runs leaves out because they did not bind (snapshot numbers). */
  failedPorts: NodeFailedPort[] = [];

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
   * rendered config differs from the active one or nginx is down, then push the data plane. Ports
   * that do not bind are left out (`failedPorts`).
   */
  async apply(snapshot: EdgeSnapshot): Promise<ApplyResult> {
    const { nginx } = this.options;
    const base = this.settingsFor(snapshot);
    if (base === null) {
      this.failedPorts = [];
      if (!(await nginx.isRunning())) return { nginx: 'none', push: null };
      await nginx.stop();
      return { nginx: 'stopped', push: null };
    }
    const planned = plannedPorts(snapshot, base);
    const running = await nginx.isRunning();
    const held = running ? listenedPorts((await this.activeConf()) ?? '') : new Set<string>();
    const failed = await unbindablePorts(planned, held, this.options.listenAddress ?? '0.0.0.0');
    let action: NginxAction = 'none';
    for (let attempt = 0; ; attempt++) {
      const conf = renderNginxConf(withoutPorts(base, failed, planned));
      try {
        if (!(await nginx.isRunning())) {
          await nginx.start(conf);
          action = 'started';
        } else if ((await this.activeConf()) !== conf) {
          await nginx.reload(conf);
          action = 'reloaded';
        }
        break;
      } catch (err) {
        const more = attempt < BIND_RETRIES ? newlyFailed(err, planned, failed) : [];
        if (more.length === 0) throw err;
        failed.push(...more);
      }
    }
    this.failedPorts = failed;
    if (action !== 'none') this.nginxChanged = true;
    await this.track();
    const push = await pushDataPlane(this.options.adminPort, snapshot.dataPlane);
    return { nginx: action, push };
  }

  /** Whether one of `failedPorts` binds now (the process holding it let go): worth applying again. */
  async failedPortFreed(snapshot: EdgeSnapshot): Promise<boolean> {
    const settings = this.settingsFor(snapshot);
    if (settings === null || this.failedPorts.length === 0) return false;
    const key = (p: { kind: string; id?: number | undefined; port: number; protocol: string }) =>
      `${p.kind}/${p.id ?? ''}/${p.port}/${p.protocol}`;
    const failed = new Set(this.failedPorts.map(key));
    const retry = plannedPorts(snapshot, settings).filter((p) => failed.has(key(p)));
    const still = await unbindablePorts(retry, new Set(), this.options.listenAddress ?? '0.0.0.0');
    return still.length < retry.length;
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

/** Every port `settings` listens on, with the snapshot number it stands for. */
function plannedPorts(snapshot: EdgeSnapshot, settings: NginxSettingsInput): PlannedPort[] {
  const listen = (ports: number[], local: number[]): PlannedPort[] =>
    ports.map((port, i) => ({ kind: 'listen', port, localPort: local[i] ?? port, protocol: 'tcp' }));
  const stream = (snapshot.streamPorts ?? []).flatMap((p, i): PlannedPort[] => {
    const localPort = settings.streamPorts?.[i]?.port ?? p.port;
    const protocols = p.protocol === 'both' ? (['tcp', 'udp'] as const) : ([p.protocol] as const);
    return protocols.map((protocol) => ({ kind: 'stream', id: p.id, port: p.port, localPort, protocol }));
  });
  return [
    ...listen(snapshot.listen.httpPorts, settings.httpPorts),
    ...listen(snapshot.listen.httpsPorts, settings.httpsPorts),
    ...stream,
  ];
}

/**
 * `settings` without the failed ports: a stream port loses the failed protocol (a `both` port whose
 * UDP side failed keeps TCP), a listen port goes while another listen port remains.
 */
function withoutPorts(
  settings: NginxSettingsInput,
  failed: readonly NodeFailedPort[],
  planned: readonly PlannedPort[],
): NginxSettingsInput {
  if (failed.length === 0) return settings;
  const streamFailed = (id: number, protocol: 'tcp' | 'udp') =>
    failed.some((f) => f.kind === 'stream' && f.id === id && f.protocol === protocol);
  const streamPorts = (settings.streamPorts ?? []).flatMap((p) => {
    const tcp = p.protocol !== 'udp' && !streamFailed(p.id, 'tcp');
    const udp = p.protocol !== 'tcp' && !streamFailed(p.id, 'udp');
    if (!tcp && !udp) return [];
    return [{ ...p, protocol: tcp && udp ? ('both' as const) : tcp ? ('tcp' as const) : ('udp' as const) }];
  });
  const dropped = new Set(
    planned
      .filter((p) => p.kind === 'listen' && failed.some((f) => f.kind === 'listen' && f.port === p.port))
      .map((p) => p.localPort),
  );
  let { httpPorts, httpsPorts } = settings;
  const http = httpPorts.filter((p) => !dropped.has(p));
  const https = httpsPorts.filter((p) => !dropped.has(p));
  if (http.length + https.length > 0) {
    httpPorts = http;
    httpsPorts = https;
  }
  return { ...settings, httpPorts, httpsPorts, streamPorts };
}

/** Ports nginx's error says it could not bind that are not among `failed` yet. */
function newlyFailed(
  err: unknown,
  planned: readonly PlannedPort[],
  failed: readonly NodeFailedPort[],
): NodeFailedPort[] {
  if (!(err instanceof NginxConfigError)) return [];
  const known = new Set(failed.map((f) => `${f.kind}/${f.id ?? ''}/${f.protocol}/${f.port}`));
  const out: NodeFailedPort[] = [];
  for (const { localPort, error } of bindFailures(err.emerg)) {
    // nginx's message does not say TCP or UDP: every planned use of the port goes.
    for (const p of planned) {
      const k = `${p.kind}/${p.id ?? ''}/${p.protocol}/${p.port}`;
      if (p.localPort !== localPort || known.has(k)) continue;
      known.add(k);
      out.push(failure(p, error));
    }
  }
  return out;
}
