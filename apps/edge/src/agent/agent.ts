import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { EdgeCommand, EdgeSnapshot } from '@rampart/contract';
import { ZodError } from 'zod';
import { DataPlanePushError, type PushResult, pushDataPlane } from '../data-plane/push.js';
import { formatPath } from '../data-plane/schema.js';
import { type CertificatePaths, ensureDefaultCertificate } from '../nginx/default-certificate.js';
import { NginxConfigError, NginxProcess } from '../nginx/nginx-process.js';
import { type NginxSettingsInput, nginxSettingsSchema, renderNginxConf } from '../nginx/render.js';
import { Backoff, pause } from './backoff.js';
import { preheatUrls, purgeUrls } from './cache-commands.js';
import { type CommandOutcome, runCommandLoop } from './command-loop.js';
import { errorText, jsonLineLogger, type Logger } from './log.js';
import { nextDailyTime, shiftLogs } from './log-rotate.js';
import { ProbeLoop } from './monitor.js';
import { NodeApiError, NodeClient, SnapshotRefusedError } from './node-client.js';
import { alive, killNginxLeftovers } from './processes.js';
import { type Credentials, StateDir } from './state.js';
import { SystemSampler } from './system-info.js';
import { installRelease } from './upgrade.js';
import { AGENT_VERSION } from './version.js';

/**
 * The edge agent (`rampart-edge`): registers the node once, long-polls the control plane for the
 * node's snapshot, applies it to a supervised nginx, keeps the last good snapshots on disk and
 * reports what it applied.
 *
 * Apply: the snapshot's listen settings (ports through the port map, http2), nginx settings and
 * layer-4 stream ports (also through the port map) are rendered into
 * nginx.conf with render.ts; when the text differs from the active config, or nginx is not
 * running, nginx is reloaded (nginx -t first; a refused config leaves the old one running) or
 * started. Then the data plane is pushed into Lua shared memory. A data-plane-only change never
 * reloads nginx. A snapshot becomes good (written to disk, `current`) only once it applied.
 *
 * Everything that changes nginx runs one at a time (the apply lock): a snapshot from the poll, the
 * restart by the supervisor, the operator's commands (reboot, reset, log rotation; see
 * command-loop.ts) and the shutdown. The status report carries the machine's system information.
 */

export interface AgentOptions {
  /** Control plane URL; null = the one stored with the credentials. */
  controlPlane: string | null;
  /** Operator's join token; needed only before the first registration. */
  joinToken: string | null;
  /** Absolute path of the state directory. */
  stateDir: string;
  nginxBinary: string;
  /** Loopback port of nginx's admin server (data-plane pushes). */
  adminPort: number;
  /** Absolute path of the Lua package directory (holds `rampart/`). */
  luaDir: string;
  /** Snapshot listen port → local port (ports not in the map are used as they are). */
  portMap: ReadonlyMap<number, number>;
  /** IP literal the public servers bind to; undefined = every address. */
  listenAddress?: string | undefined;
  hostname: string;
  ips: string[];
  workerProcesses: 'auto' | number;
  logger?: Logger;
  /** How long a snapshot poll may be held by the control plane (seconds, ≤ 30). */
  pollWaitSeconds?: number;
  heartbeatMs?: number;
  /** How often the supervisor checks that nginx's master runs. */
  superviseMs?: number;
  backoffMinMs?: number;
  backoffMaxMs?: number;
  /** How often the node asks what it should probe as a monitor node (monitor.ts). */
  probeRefreshMs?: number;
}

type NginxAction = 'none' | 'started' | 'reloaded' | 'stopped';

interface ApplyResult {
  nginx: NginxAction;
  push: PushResult | null;
}

/** One line for a log or the status report's lastError. */
export function describeError(err: unknown): string {
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    return `${formatPath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`;
  }
  return errorText(err);
}

export class Agent {
  readonly state: StateDir;
  readonly nginx: NginxProcess;
  private readonly log: Logger;
  private readonly options: Required<
    Pick<AgentOptions, 'pollWaitSeconds' | 'heartbeatMs' | 'superviseMs' | 'backoffMinMs' | 'backoffMaxMs'>
  >;

  private client: NodeClient | null = null;
  private credentials: Credentials | null = null;
  private defaultCertificate: CertificatePaths | null = null;
  private applied: EdgeSnapshot | null = null;
  /** Version sent as `?version=`: the applied one, or a refused one so the control plane waits for a newer. */
  private lastSeen: string | null = null;
  private snapshotError = '';
  private nginxError = '';

  private readonly controller = new AbortController();
  private lock: Promise<unknown> = Promise.resolve();
  private running: Promise<void> | null = null;
  private statusInFlight: Promise<void> | null = null;
  private statusAgain = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private supervisor: NodeJS.Timeout | null = null;
  private supervising: Promise<void> | null = null;
  /** The master and workers seen last: a master killed with SIGKILL leaves its workers on the ports. */
  private trackedPids = new Set<number>();
  private readonly restartBackoff: Backoff;
  private nextRestartAt = 0;
  private controlPlaneReachable = true;
  private controlPlaneUrl = '';
  /** Set by applySnapshot once it started or reloaded nginx (decides whether a failure rolls back). */
  private nginxChanged = false;
  private readonly system: SystemSampler;
  /** The daily log rotation the applied snapshot asks for (`HH:MM` UTC) and its timer. */
  private rotationTime: string | null = null;
  private rotationTimer: NodeJS.Timeout | null = null;
  private probes: ProbeLoop | null = null;
  /** Set once an upgrade switched releases; resolved after its result is reported (see upgrade.ts). */
  private switchedTo: string | null = null;
  private restartWanted: (version: string) => void = () => {};
  /** Resolves with the version an upgrade installed, once the agent should restart onto it. */
  readonly restartRequested = new Promise<string>((resolve) => {
    this.restartWanted = resolve;
  });

  constructor(private readonly config: AgentOptions) {
    this.log = config.logger ?? jsonLineLogger();
    this.options = {
      pollWaitSeconds: config.pollWaitSeconds ?? 25,
      heartbeatMs: config.heartbeatMs ?? 15_000,
      superviseMs: config.superviseMs ?? 1000,
      backoffMinMs: config.backoffMinMs ?? 500,
      backoffMaxMs: config.backoffMaxMs ?? 10_000,
    };
    this.restartBackoff = new Backoff(this.options.backoffMinMs, this.options.backoffMaxMs);
    this.state = new StateDir(config.stateDir);
    this.nginx = new NginxProcess({
      prefix: this.state.nginxPrefix,
      errorLogPath: path.join(this.state.nginxPrefix, 'logs/error.log'),
      nginxBinary: config.nginxBinary,
    });
    this.system = new SystemSampler(config.stateDir, config.nginxBinary);
  }

  /** The version of the snapshot nginx serves now ('' before the first). */
  get appliedVersion(): string {
    return this.applied?.version ?? '';
  }

  get lastError(): string {
    return [this.snapshotError, this.nginxError]
      .filter((e) => e !== '')
      .join('; ')
      .slice(0, 2000);
  }

  get nodeId(): number | null {
    return this.credentials?.nodeId ?? null;
  }

  private get signal(): AbortSignal {
    return this.controller.signal;
  }

  private get stopping(): boolean {
    return this.controller.signal.aborted;
  }

  /** Runs `task` when every earlier nginx-changing task has finished. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const result = this.lock.then(task);
    this.lock = result.catch(() => undefined);
    return result;
  }

  /**
   * Prepares the state directory, serves the last good snapshot from disk (before any contact with
   * the control plane), starts the supervisor and the heartbeat, and leaves registration and the
   * long poll running in the background. Throws only for a configuration that can never work.
   */
  async start(): Promise<void> {
    await this.state.prepare();
    await this.nginx.prepare();
    this.defaultCertificate = await ensureDefaultCertificate(path.join(this.state.nginxPrefix, 'certs'));
    this.credentials = await this.state.readCredentials();
    const controlPlane = this.config.controlPlane ?? this.credentials?.controlPlane ?? null;
    if (controlPlane === null) throw new Error('no control plane URL: pass --control-plane');
    if (this.credentials === null && !this.config.joinToken) {
      throw new Error('the node is not registered yet: pass --join-token');
    }
    this.controlPlaneUrl = controlPlane;
    this.client = new NodeClient(controlPlane, this.credentials);
    if (this.credentials && this.credentials.controlPlane !== controlPlane) {
      this.log('warn', 'control_plane.changed', { from: this.credentials.controlPlane, to: controlPlane });
      this.credentials = { ...this.credentials, controlPlane };
      await this.state.writeCredentials(this.credentials);
    }
    this.log('info', 'agent.started', {
      version: AGENT_VERSION,
      stateDir: this.config.stateDir,
      controlPlane,
      nodeId: this.credentials?.nodeId ?? null,
    });

    const stored = await this.state.loadGood((version, err) =>
      this.log('warn', 'snapshot.stored_refused', { version, error: err.message }),
    );
    if (stored) {
      this.log('info', 'snapshot.restored', { version: stored.version });
      try {
        const result = await this.exclusive(() => this.applySnapshot(stored));
        this.applied = stored;
        this.lastSeen = stored.version;
        this.scheduleRotation(stored.logRotateTime ?? null);
        this.log('info', 'snapshot.applied', { version: stored.version, source: 'disk', ...summary(result) });
      } catch (err) {
        this.nginxError = `stored snapshot ${stored.version}: ${describeError(err)}`;
        // Still the best known state: the supervisor retries it and the poll may bring a newer one.
        this.applied = stored;
        this.lastSeen = stored.version;
        this.log('error', 'snapshot.apply_failed', { version: stored.version, source: 'disk', error: this.nginxError });
      }
    }

    this.scheduleSupervisor();
    this.heartbeat = setInterval(() => this.reportStatus(), this.options.heartbeatMs);
    this.running = this.run().catch((err: unknown) => {
      this.log('error', 'agent.failed', { error: describeError(err) });
    });
  }

  /** Stops polling and the supervisor, stops nginx gracefully (SIGQUIT) and waits for all of it. */
  async stop(): Promise<void> {
    if (!this.stopping) this.controller.abort(new Error('agent stopping'));
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.supervisor) clearTimeout(this.supervisor);
    if (this.rotationTimer) clearTimeout(this.rotationTimer);
    await this.running;
    await this.probes?.stop();
    await this.supervising;
    await this.statusInFlight;
    await this.exclusive(async () => {
      await this.nginx.stop();
    });
    this.log('info', 'agent.stopped', { appliedVersion: this.appliedVersion });
  }

  private async run(): Promise<void> {
    await this.register();
    if (this.stopping) return;
    this.reportStatus();
    const client = this.client;
    if (!client) return;
    this.probes = new ProbeLoop(client, this.log, this.config.probeRefreshMs);
    this.probes.start();
    await Promise.all([
      this.poll(),
      runCommandLoop({
        client,
        execute: (command) => this.execute(command),
        afterEach: () => {
          if (this.switchedTo !== null) this.restartWanted(this.switchedTo);
        },
        log: this.log,
        signal: this.signal,
        waitSeconds: this.options.pollWaitSeconds,
        backoffMinMs: this.options.backoffMinMs,
        backoffMaxMs: this.options.backoffMaxMs,
      }),
    ]);
  }

  private async register(): Promise<void> {
    const client = this.client;
    if (!client || this.credentials) return;
    const backoff = new Backoff(this.options.backoffMinMs, this.options.backoffMaxMs);
    while (!this.stopping) {
      try {
        const { nodeId, nodeSecret } = await client.register(
          {
            joinToken: this.config.joinToken ?? '',
            hostname: this.config.hostname,
            ips: this.config.ips,
            version: AGENT_VERSION,
          },
          this.signal,
        );
        this.credentials = { nodeId, nodeSecret, controlPlane: this.controlPlaneUrl };
        client.setCredentials(this.credentials);
        try {
          await this.state.writeCredentials(this.credentials);
        } catch (err) {
          // Registering again would make a second node: run with the credentials in memory.
          this.log('error', 'credentials.save_failed', { error: describeError(err) });
        }
        // Logged once the credentials are on disk (or known not to be), so the line means "joined".
        this.log('info', 'registered', { nodeId, hostname: this.config.hostname, ips: this.config.ips });
        return;
      } catch (err) {
        if (this.stopping) return;
        const retryInMs = backoff.next();
        this.log('warn', 'register.failed', { error: describeError(err), retryInMs });
        await pause(retryInMs, this.signal);
      }
    }
  }

  private async poll(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const backoff = new Backoff(this.options.backoffMinMs, this.options.backoffMaxMs);
    // Separate: a snapshot that keeps failing to apply backs off although every poll succeeds.
    const applyBackoff = new Backoff(this.options.backoffMinMs, this.options.backoffMaxMs);
    while (!this.stopping) {
      const started = Date.now();
      try {
        const snapshot = await client.snapshot(this.lastSeen, this.options.pollWaitSeconds, this.signal);
        if (!this.controlPlaneReachable) this.log('info', 'control_plane.reachable', {});
        this.controlPlaneReachable = true;
        backoff.reset();
        if (snapshot === null) {
          // A control plane that answers "unchanged" at once must not make this loop spin.
          const elapsed = Date.now() - started;
          if (elapsed < 1000) await pause(1000 - elapsed, this.signal);
          continue;
        }
        try {
          await this.takeSnapshot(snapshot);
          applyBackoff.reset();
        } catch {
          // Logged and reported by takeSnapshot; the next poll gets the same snapshot again.
          const retryInMs = applyBackoff.next();
          this.log('info', 'snapshot.retry', { version: snapshot.version, retryInMs });
          await pause(retryInMs, this.signal);
        }
      } catch (err) {
        if (this.stopping) return;
        if (err instanceof SnapshotRefusedError) {
          this.refuse(err.version, `${err.field}: ${err.reason}`);
          if (err.version !== null) {
            backoff.reset();
            continue; // the next poll waits for a version other than the refused one
          }
        } else if (err instanceof NodeApiError && err.status === 0 && this.controlPlaneReachable) {
          this.controlPlaneReachable = false;
          this.log('warn', 'control_plane.unreachable', { error: err.message });
        }
        const retryInMs = backoff.next();
        this.log('warn', 'poll.failed', { error: describeError(err), retryInMs });
        await pause(retryInMs, this.signal);
      }
    }
  }

  private refuse(version: string | null, reason: string): void {
    this.snapshotError = `snapshot ${version ?? '(no version)'} refused: ${reason}`.slice(0, 2000);
    if (version !== null) this.lastSeen = version;
    this.log('warn', 'snapshot.refused', { version, error: reason, appliedVersion: this.appliedVersion });
    this.reportStatus();
  }

  /**
   * A snapshot from the control plane (already checked against the contract's schema). Checks that
   * its listen settings render for this node, applies it, then records it as good. A failure to
   * apply throws: the poll retries after a backoff (the previous snapshot stays active).
   */
  private async takeSnapshot(snapshot: EdgeSnapshot): Promise<void> {
    if (snapshot.version === this.applied?.version) {
      this.lastSeen = snapshot.version;
      if (this.snapshotError !== '') {
        this.snapshotError = '';
        this.reportStatus();
      }
      return;
    }
    this.log('info', 'snapshot.received', {
      version: snapshot.version,
      initialized: snapshot.initialized,
      domains: snapshot.dataPlane.domains.length,
      certificates: snapshot.dataPlane.certificates.length,
    });
    const settings = this.settingsFor(snapshot);
    if (settings !== null) {
      const check = nginxSettingsSchema.safeParse(settings);
      if (!check.success) {
        const issue = check.error.issues[0];
        const field = formatPath(issue?.path ?? []).replace(/^(httpPorts|httpsPorts|adminPort)/, 'listen.$1');
        this.refuse(snapshot.version, `${field}: ${issue?.message ?? 'invalid'} (after the port map)`);
        return;
      }
    }
    const started = performance.now();
    try {
      const result = await this.exclusive(async () => {
        if (this.stopping) throw new Error('agent stopping');
        const previous = this.applied;
        let applied: ApplyResult;
        this.nginxChanged = false;
        try {
          applied = await this.applySnapshot(snapshot);
        } catch (err) {
          // A config nginx refused never went live; one that did (or a dead nginx) needs the old one back.
          const rollBack = this.nginxChanged || !(await this.nginx.isRunning());
          if (previous !== null && rollBack && !this.stopping) await this.rollBack(previous);
          throw err;
        }
        this.applied = snapshot;
        return applied;
      });
      this.lastSeen = snapshot.version;
      this.snapshotError = '';
      this.nginxError = '';
      this.scheduleRotation(snapshot.logRotateTime ?? null);
      this.log('info', 'snapshot.applied', {
        version: snapshot.version,
        source: 'control_plane',
        ms: Math.round(performance.now() - started),
        ...summary(result),
      });
      try {
        await this.state.saveGood(snapshot);
      } catch (err) {
        this.snapshotError = `snapshot ${snapshot.version} applied but not saved: ${describeError(err)}`;
        this.log('error', 'snapshot.save_failed', { version: snapshot.version, error: describeError(err) });
      }
      this.reportStatus();
    } catch (err) {
      this.snapshotError = `snapshot ${snapshot.version} not applied: ${describeError(err)}`.slice(0, 2000);
      this.log('error', 'snapshot.apply_failed', {
        version: snapshot.version,
        error: describeError(err),
        appliedVersion: this.appliedVersion,
        ...(err instanceof NginxConfigError ? { emerg: err.emerg } : {}),
        ...(err instanceof DataPlanePushError ? { status: err.status, field: err.field } : {}),
      });
      this.reportStatus();
      throw err;
    }
  }

  /** After a failed apply: puts the previous good snapshot's config and data plane back. */
  private async rollBack(previous: EdgeSnapshot): Promise<void> {
    try {
      const result = await this.applySnapshot(previous);
      if (result.nginx !== 'none' || result.push !== null) {
        this.log('info', 'snapshot.rolled_back', { version: previous.version, ...summary(result) });
      }
    } catch (err) {
      this.nginxError = `rollback to ${previous.version} failed: ${describeError(err)}`;
      this.log('error', 'snapshot.rollback_failed', { version: previous.version, error: describeError(err) });
    }
  }

  /** nginx settings for a snapshot; null when it listens on no port (nothing to run). */
  private settingsFor(snapshot: EdgeSnapshot): NginxSettingsInput | null {
    const { listen } = snapshot;
    if (listen.httpPorts.length + listen.httpsPorts.length === 0) return null;
    const map = (p: number) => this.config.portMap.get(p) ?? p;
    const prefix = this.state.nginxPrefix;
    if (!this.defaultCertificate) throw new Error('agent not started');
    return {
      prefix,
      httpPorts: listen.httpPorts.map(map),
      httpsPorts: listen.httpsPorts.map(map),
      http2: listen.http2,
      adminPort: this.config.adminPort,
      ...(this.config.listenAddress !== undefined ? { listenAddress: this.config.listenAddress } : {}),
      workerProcesses: this.config.workerProcesses,
      luaDir: this.config.luaDir,
      defaultCertificate: this.defaultCertificate,
      errorLogPath: this.nginx.errorLogPath,
      accessLogPath: path.join(prefix, 'logs/access.log'),
      ...(this.credentials ? { requestIdPrefix: `n${this.credentials.nodeId}` } : {}),
      tuning: snapshot.nginx,
      streamPorts: (snapshot.streamPorts ?? []).map((p) => ({ ...p, port: map(p.port) })),
    };
  }

  private async activeConf(): Promise<string | null> {
    try {
      return await readFile(this.nginx.currentConfPath, 'utf8');
    } catch {
      return null;
    }
  }

  /**
   * Makes nginx serve `snapshot` (call under the apply lock): start or reload only when the
   * rendered config differs from the active one or nginx is down, then push the data plane.
   */
  private async applySnapshot(snapshot: EdgeSnapshot): Promise<ApplyResult> {
    const settings = this.settingsFor(snapshot);
    if (settings === null) {
      if (!(await this.nginx.isRunning())) return { nginx: 'none', push: null };
      await this.nginx.stop();
      return { nginx: 'stopped', push: null };
    }
    const conf = renderNginxConf(settings);
    let action: NginxAction = 'none';
    if (!(await this.nginx.isRunning())) {
      await this.nginx.start(conf);
      action = 'started';
    } else if ((await this.activeConf()) !== conf) {
      await this.nginx.reload(conf);
      action = 'reloaded';
    }
    if (action !== 'none') this.nginxChanged = true;
    await this.track();
    const push = await pushDataPlane(this.config.adminPort, snapshot.dataPlane);
    return { nginx: action, push };
  }

  private async track(): Promise<void> {
    const master = await this.nginx.masterPid();
    if (master !== null) this.trackedPids = new Set([master, ...(await this.nginx.childPids())]);
  }

  private scheduleSupervisor(): void {
    if (this.stopping) return;
    this.supervisor = setTimeout(() => {
      this.supervising = this.exclusive(() => this.supervise())
        .catch((err: unknown) => this.log('error', 'supervisor.failed', { error: describeError(err) }))
        .finally(() => this.scheduleSupervisor());
    }, this.options.superviseMs);
  }

  /**
   * One supervisor round (under the apply lock): when nginx's master is gone although the applied
   * snapshot needs it, kills the workers it left on the ports, starts nginx again and re-pushes the
   * data plane (the shared dict died with the master: requests would get 503 until the push).
   */
  private async supervise(): Promise<void> {
    if (this.stopping) return;
    if (await this.nginx.isRunning()) {
      await this.track();
      return;
    }
    const snapshot = this.applied;
    if (snapshot === null || this.settingsFor(snapshot) === null) return;
    if (Date.now() < this.nextRestartAt) return;
    const leftovers = killNginxLeftovers(this.trackedPids);
    const deadline = Date.now() + 3000;
    while (leftovers.some(alive) && Date.now() < deadline) await pause(20, this.signal);
    this.log('warn', 'nginx.died', { pids: [...this.trackedPids], killedLeftovers: leftovers });
    try {
      const result = await this.applySnapshot(snapshot);
      this.restartBackoff.reset();
      this.nextRestartAt = 0;
      this.nginxError = '';
      this.log('info', 'nginx.restarted', { version: snapshot.version, ...summary(result) });
    } catch (err) {
      const retryInMs = this.restartBackoff.next();
      this.nextRestartAt = Date.now() + retryInMs;
      this.nginxError = `nginx restart failed: ${describeError(err)}`.slice(0, 2000);
      this.log('error', 'nginx.restart_failed', { error: describeError(err), retryInMs });
    }
    this.reportStatus();
  }

  /** Sends a status report now (coalesced: at most one in flight, one more queued). */
  reportStatus(): void {
    const client = this.client;
    if (!client || !this.credentials || this.stopping) return;
    if (this.statusInFlight) {
      this.statusAgain = true;
      return;
    }
    this.statusInFlight = (async () => {
      do {
        this.statusAgain = false;
        try {
          const system = await this.system.sample().catch((err: unknown) => {
            this.log('warn', 'system.sample_failed', { error: describeError(err) });
            return undefined;
          });
          await client.reportStatus(
            {
              version: AGENT_VERSION,
              appliedVersion: this.appliedVersion,
              lastError: this.lastError,
              ips: this.config.ips,
              ...(system ? { system } : {}),
            },
            this.signal,
          );
        } catch (err) {
          if (this.stopping) break;
          this.log('warn', 'status.failed', { error: describeError(err) });
        }
      } while (this.statusAgain && !this.stopping);
      this.statusInFlight = null;
    })();
  }

  /** Runs one operator command (see command-loop.ts); answers the result message, throws on failure. */
  private execute(command: EdgeCommand): Promise<CommandOutcome> {
    switch (command.type) {
      case 'clearCache':
        return this.clearCache(command.payload.epoch);
      case 'purgeUrls':
        return this.purge(command.payload.urls);
      case 'preheat':
        return this.preheat(command.payload.urls);
      case 'reboot':
        return this.reboot();
      case 'reset':
        return this.reset();
      case 'logRotate':
        return this.rotateLogs();
      case 'upgrade':
        return this.upgrade(command.id, command.payload.version);
    }
  }

  /**
   * Clear the whole cache: the control plane raised this node's cache epoch, part of every cache
   * key. Answers once a snapshot with that epoch serves (fetched now when the poll has not yet
   * brought it).
   */
  async clearCache(epoch: number): Promise<string> {
    const active = () => (this.applied?.dataPlane.cacheEpoch ?? 0) >= epoch;
    if (!active()) {
      const client = this.client;
      if (!client) throw new Error('agent not started');
      const snapshot = await client.snapshot(null, 0, this.signal);
      if (snapshot === null) throw new Error('the control plane answered no snapshot');
      await this.takeSnapshot(snapshot);
    }
    if (!active()) throw new Error(this.snapshotError || `cache epoch ${epoch} is not active yet`);
    return `cache epoch ${this.applied?.dataPlane.cacheEpoch} active: every entry cached before misses`;
  }

  /** Purges URLs from nginx's cache (rampart.purge, through the admin endpoint). */
  async purge(urls: string[]): Promise<CommandOutcome> {
    if (this.applied === null) throw new Error('no applied snapshot: nothing is cached');
    const results = await purgeUrls(this.config.adminPort, urls);
    const purged = results.reduce((sum, r) => sum + (r.purged ?? 0), 0);
    return { message: `${urls.length} URL(s): ${purged} cache entr${purged === 1 ? 'y' : 'ies'} removed`, results };
  }

  /** Requests URLs from this node's nginx so that the sites' cache rules store them. */
  async preheat(urls: string[]): Promise<CommandOutcome> {
    const snapshot = this.applied;
    const settings = snapshot && this.settingsFor(snapshot);
    if (!settings) throw new Error('no applied snapshot: nginx serves nothing');
    const listen = settings.listenAddress;
    const address = listen === undefined || listen === '0.0.0.0' ? '127.0.0.1' : listen === '::' ? '::1' : listen;
    const results = await preheatUrls(
      { address, httpPort: settings.httpPorts[0] ?? null, httpsPort: settings.httpsPorts[0] ?? null },
      urls,
      this.signal,
    );
    const ok = results.filter((r) => r.ok).length;
    return { message: `${ok} of ${urls.length} URL(s) fetched`, results };
  }

  /**
   * Upgrade: installs the control plane's release `version` (upgrade.ts) and asks for a restart
   * onto it once the result is reported. nginx is not touched: it serves on while the agent restarts.
   */
  async upgrade(commandId: number, version: string): Promise<string> {
    const client = this.client;
    if (!client) throw new Error('agent not started');
    if (version === AGENT_VERSION) return `already running ${version}`;
    this.log('info', 'upgrade.started', { version, from: AGENT_VERSION });
    await installRelease(
      {
        client,
        stateDir: this.config.stateDir,
        log: this.log,
        signal: this.signal,
        progress: async (stage, message) => {
          this.log('info', `upgrade.${stage}`, { version, message });
          await client.upgradeProgress({ commandId, stage, message }, this.signal).catch((err: unknown) => {
            this.log('warn', 'upgrade.progress_failed', { stage, error: describeError(err) });
          });
        },
      },
      version,
    );
    this.switchedTo = version;
    return `switched to ${version}; restarting onto it`;
  }

  /**
   * Stops polling, the supervisor and the timers but leaves nginx serving: for a restart onto a new
   * release, whose start-up adopts the running nginx (as after a crash) and reloads it when its
   * config differs (the Lua directory of the new release).
   */
  async detach(): Promise<void> {
    if (!this.stopping) this.controller.abort(new Error('agent restarting'));
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.supervisor) clearTimeout(this.supervisor);
    if (this.rotationTimer) clearTimeout(this.rotationTimer);
    await this.running;
    await this.supervising;
    await this.statusInFlight;
    await this.lock;
    this.log('info', 'agent.detached', { appliedVersion: this.appliedVersion, nginxPid: await this.nginx.masterPid() });
  }

  /** Reboot: stops nginx and starts it again (a new master) with the applied snapshot. */
  async reboot(): Promise<string> {
    const message = await this.exclusive(async () => {
      const snapshot = this.applied;
      if (snapshot === null || this.settingsFor(snapshot) === null) throw new Error('no applied snapshot to serve');
      const before = await this.nginx.masterPid();
      await this.nginx.stop();
      await this.applySnapshot(snapshot);
      const after = await this.nginx.masterPid();
      return `nginx restarted: master ${before ?? 'none'} → ${after ?? 'none'}`;
    });
    this.system.forgetNginxVersion();
    this.nginxError = '';
    this.reportStatus();
    return message;
  }

  /**
   * Reset: stops nginx, forgets every stored snapshot, fetches the node's snapshot afresh and
   * applies it from scratch (new config version, nginx started, data plane pushed). Should the
   * fetch or apply fail, the snapshot poll keeps trying (it asks with no known version).
   */
  async reset(): Promise<string> {
    const client = this.client;
    if (!client) throw new Error('agent not started');
    await this.exclusive(async () => {
      await this.nginx.stop();
      await this.state.dropSnapshots();
      this.applied = null;
      this.lastSeen = null;
    });
    this.log('info', 'agent.reset', {});
    const snapshot = await client.snapshot(null, 0, this.signal);
    if (snapshot === null) throw new Error('the control plane answered no snapshot');
    await this.takeSnapshot(snapshot);
    if (this.applied?.version !== snapshot.version) throw new Error(this.snapshotError || 'snapshot not applied');
    const master = await this.nginx.masterPid();
    return `snapshot ${snapshot.version} applied again; nginx master ${master ?? 'not running'}`;
  }

  /** Renames nginx's access and error logs (keeping the last few) and has nginx write fresh ones. */
  async rotateLogs(): Promise<string> {
    return this.exclusive(async () => {
      const files = [path.join(this.state.nginxPrefix, 'logs/access.log'), this.nginx.errorLogPath];
      const rotated = await shiftLogs(files);
      const reopened = rotated.length > 0 && (await this.nginx.reopenLogs(rotated));
      const names = rotated.map((f) => path.basename(f)).join(', ') || 'no log';
      this.log('info', 'logs.rotated', { files: rotated, reopened });
      return `rotated ${names}${reopened ? '; nginx reopened its logs' : ''}`;
    });
  }

  /** (Re)arms the daily log rotation for `time` (`HH:MM` UTC); null disarms it. */
  private scheduleRotation(time: string | null): void {
    if (time === this.rotationTime && (time === null || this.rotationTimer !== null)) return;
    this.rotationTime = time;
    if (this.rotationTimer) clearTimeout(this.rotationTimer);
    this.rotationTimer = null;
    if (time === null || this.stopping) return;
    const at = nextDailyTime(time, new Date());
    this.log('info', 'logs.rotation_scheduled', { daily: time, at: at.toISOString() });
    this.rotationTimer = setTimeout(() => {
      this.rotationTimer = null;
      this.rotateLogs()
        .catch((err: unknown) => this.log('error', 'logs.rotate_failed', { error: describeError(err) }))
        .finally(() => {
          if (this.rotationTime === time) this.scheduleRotation(time);
        });
    }, at.getTime() - Date.now());
  }
}

function summary(result: ApplyResult): Record<string, unknown> {
  return {
    nginx: result.nginx,
    ...(result.push ? { generation: result.push.generation, domains: result.push.domains } : {}),
  };
}
