import { readFile, rm, stat } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import type { EdgeSnapshot, L4Rules, NodeFailedPort } from '@rampart/contract';
import { type AdminEndpoint, documentHash } from '../../data-plane/admin-client.js';
import { activeDataPlane, type PushResult, pushDataPlane } from '../../data-plane/push.js';
import { type CertificatePaths, ensureDefaultCertificate } from '../../nginx/default-certificate.js';
import { NginxConfigError, type NginxProcess } from '../../nginx/nginx-process.js';
import {
  CONFIG_DICT_MIN_MB,
  configDictMegabytesFor,
  declaredConfigDictMegabytes,
  type NginxSettingsInput,
  renderNginxConf,
} from '../../nginx/render.js';
import { errorText } from '../log.js';
import { alive } from '../process/processes.js';
import type { GeoDatabaseFiles } from './geo-database.js';
import { bindFailures, listenedPorts, unbindablePorts } from './port-check.js';
import { newlyFailed, plannedPorts, withoutPorts } from './port-plan.js';
import type { AbuseIPFiles } from './reputation-list.js';

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
  /** nginx tallies a flood's repeated refusals (the event worker drains them into its aggregates). */
  refusalTallies?: boolean;
  /** The registered node's id (request ids start with `n<id>`); null before registration. */
  nodeId: () => number | null;
  /** The geo database's directory and fetcher (agent/geo-database.ts); absent: no geo database. */
  geo?: { dir: string; files: GeoDatabaseFiles } | undefined;
  /** The reputation list's directory and fetcher (agent/reputation-list.ts); absent: no list. */
  reputation?: { dir: string; files: AbuseIPFiles } | undefined;
  /**
   * The node's kernel firewall (agent/l4-firewall.ts) the snapshot's layer-4 document goes to;
   * absent: the node cannot run nft (not root, no nft) or the operator turned it off.
   */
  l4?: { apply(document: unknown): Promise<void> } | undefined;
  /**
   * The data plane as entries (plane-loop.ts): when given, nginx's store is filled from it and the
   * snapshot's own data plane is not pushed. Called under the apply lock.
   */
  plane?:
    | {
        /** False when the control plane has no plane route: the snapshot's data plane is pushed. */
        readonly available: boolean;
        ensure(): Promise<{ found: PushResult | null; push: PushResult | null } | null>;
        /** The plane's size on disk (bytes): what nginx's data-plane dict is sized from when it starts. */
        bytes(): Promise<number>;
      }
    | undefined;
}

/** The kernel's document for a snapshot without one: the agent's table, empty (nothing dropped). */
const EMPTY_L4: L4Rules = { zone: { guardedPorts: [], synFlood: null, newConnections: null }, regions: [], ports: [] };

export class SnapshotApplier {
  private defaultCertificate: CertificatePaths | null = null;
  /** The master and workers seen last: a master killed with SIGKILL leaves its workers on the ports. */
  trackedPids = new Set<number>();
  private trackedMaster: number | null = null;
  /** Set once an apply started or reloaded nginx (decides whether a failure rolls back); reset by the caller. */
  nginxChanged = false;
  /** Ports the config nginx runs leaves out because they did not bind (snapshot numbers). */
  failedPorts: NodeFailedPort[] = [];

  /** The layer-4 document the kernel holds (its JSON, after the port map), null before the first. */
  private l4Applied: string | null = null;
  /** Why the latest layer-4 document did not reach the kernel ('' when it did, or without a firewall). */
  l4Error = '';

  constructor(private readonly options: ApplierOptions) {}

  /**
   * Puts `snapshot`'s layer-4 document into the kernel (docs/decisions.md "Layer-4 protection in the
   * kernel"): its ports through the port map, null as an empty table. A document equal to the one
   * in force is not applied again. A failure is kept in `l4Error` and logged by the firewall; the
   * kernel keeps the previous table and the rest of the snapshot applies all the same.
   */
  async applyL4(snapshot: EdgeSnapshot): Promise<void> {
    const firewall = this.options.l4;
    if (!firewall) return;
    const map = (p: number) => this.options.portMap.get(p) ?? p;
    const l4 = snapshot.l4 ?? EMPTY_L4;
    const document: L4Rules = {
      ...l4,
      zone: { ...l4.zone, guardedPorts: l4.zone.guardedPorts.map(map) },
      ports: l4.ports.map((p) => ({ ...p, port: map(p.port) })),
    };
    const text = JSON.stringify(document);
    if (text === this.l4Applied) return;
    try {
      await firewall.apply(document);
      this.l4Applied = text;
      this.l4Error = '';
    } catch (err) {
      this.l4Error =
        `layer-4 rules of snapshot ${snapshot.version} not applied (the kernel keeps the previous ones): ${errorText(err)}`.slice(
          0,
          2000,
        );
    }
  }

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
      // The firewall matches URLs with the port visitors use, not the local one.
      publicPorts: [...listen.httpPorts, ...listen.httpsPorts]
        .filter((p) => map(p) !== p)
        .map((p) => ({ local: map(p), public: p })),
      http2: listen.http2,
      adminSocket: this.options.admin.socketPath,
      adminSecretFile: this.options.adminSecretFile,
      ownAddresses: ownAddresses(this.options.ips),
      ...(this.options.listenAddress !== undefined ? { listenAddress: this.options.listenAddress } : {}),
      workerProcesses: this.options.workerProcesses,
      luaDir: this.options.luaDir,
      ...(this.options.geo ? { geoDir: this.options.geo.dir } : {}),
      ...(this.options.reputation ? { reputationDir: this.options.reputation.dir } : {}),
      defaultCertificate: this.defaultCertificate,
      errorLogPath: nginx.errorLogPath,
      accessLogPath: path.join(prefix, 'logs/access.log'),
      refusalTallies: this.options.refusalTallies === true,
      ...(nodeId !== null ? { requestIdPrefix: `n${nodeId}` } : {}),
      tuning: snapshot.nginx,
      realIp: snapshot.realIp,
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
    // The kernel's rules first, whatever nginx makes of the rest (they never reload nginx).
    await this.applyL4(snapshot);
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
    // The data plane's dict: sized from the plane when nginx starts, kept while it runs.
    const configDictMegabytes = running
      ? (declaredConfigDictMegabytes((await this.activeConf()) ?? '') ?? CONFIG_DICT_MIN_MB)
      : configDictMegabytesFor((await this.options.plane?.bytes()) ?? 0);
    let action: NginxAction = 'none';
    for (let attempt = 0; ; attempt++) {
      const conf = renderNginxConf({ ...withoutPorts(base, failed, planned), configDictMegabytes });
      try {
        if (!(await nginx.isRunning())) {
          // A master that died (SIGKILL) leaves its socket file behind, and nginx cannot bind over it.
          await rm(this.options.admin.socketPath, { force: true });
          await nginx.start(conf);
          action = 'started';
        } else if ((await this.activeConf()) !== conf) {
          await nginx.reload(conf);
          action = 'reloaded';
        }
        break;
      } catch (err) {
        const named = err instanceof NginxConfigError ? bindFailures(err.emerg) : [];
        if (attempt >= BIND_RETRIES || named.length === 0) throw err;
        failed.push(...newlyFailed(named, planned, failed));
        // nginx tries a bind five times, 500 ms apart, logging each: wait until it gave up, or the
        // next attempt would read those lines as its own failure.
        await this.quietErrorLog();
      }
    }
    this.failedPorts = failed;
    if (action !== 'none') this.nginxChanged = true;
    await this.track(action === 'started');
    if (this.options.plane?.available) {
      const ensured = await this.options.plane.ensure();
      return { nginx: action, push: ensured?.push ?? null };
    }
    // The geo database the data plane names is on disk before Lua is told about it.
    await this.options.geo?.files.ensure(snapshot.dataPlane.geoDatabase);
    // So is the reputation list (agent/reputation-list.ts).
    await this.options.reputation?.files.ensure(snapshot.dataPlane.abuseIPs);
    const push = await pushDataPlane(this.options.admin, snapshot.dataPlane);
    return { nginx: action, push };
  }

  /** Resolves once nginx's error log has not grown for 700 ms (at most 5 s). */
  private async quietErrorLog(): Promise<void> {
    const size = async () => (await stat(this.options.nginx.errorLogPath).catch(() => null))?.size ?? 0;
    const deadline = Date.now() + 5000;
    let last = await size();
    let since = Date.now();
    while (Date.now() < deadline && Date.now() - since < 700) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const now = await size();
      if (now !== last) {
        last = now;
        since = Date.now();
      }
    }
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

  /**
   * Checks that nginx holds `snapshot`'s data plane: asks the admin endpoint for the active version
   * and content hash and pushes the data plane again when either differs from the snapshot's (a
   * data plane replaced behind the agent's back, or a shared dict that lost it). Answers what it
   * found when it had to push, null when all was well or nginx serves nothing. Call under the lock.
   */
  async verify(snapshot: EdgeSnapshot): Promise<{ found: PushResult | null; push: PushResult | null } | null> {
    if (this.settingsFor(snapshot) === null || !(await this.options.nginx.isRunning())) return null;
    if (this.options.plane?.available) return this.options.plane.ensure();
    // A geo database or reputation list whose fetch failed at the apply is tried again (Lua opens
    // it on its next request).
    await this.options.geo?.files.ensureMissing(snapshot.dataPlane.geoDatabase);
    await this.options.reputation?.files.ensureMissing(snapshot.dataPlane.abuseIPs);
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
