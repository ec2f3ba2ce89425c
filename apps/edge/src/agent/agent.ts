import path from 'node:path';
import type { EdgeCommand, EdgeSnapshot } from '@rampart/contract';
import type { AdminEndpoint } from '../data-plane/admin-client.js';
import { DataPlanePushError } from '../data-plane/push.js';
import { formatPath } from '../data-plane/schema.js';
import { NginxConfigError, NginxProcess } from '../nginx/nginx-process.js';
import { nginxSettingsSchema } from '../nginx/render.js';
import { type ApplyResult, applySummary, SnapshotApplier } from './apply.js';
import { Backoff, pause } from './backoff.js';
import { type CommandOutcome, runCommandLoop } from './command-loop.js';
import { type CommandHost, executeCommand, rotateLogs } from './commands.js';
import { describeError } from './errors.js';
import { jsonLineLogger, type Logger } from './log.js';
import { nextDailyTime } from './log-rotate.js';
import { ProbeLoop } from './monitor.js';
import { NodeApiError, NodeClient, SnapshotRefusedError } from './node-client.js';
import { type Credentials, StateDir } from './state.js';
import { StatusReporter } from './status-reporter.js';
import { NginxSupervisor } from './supervisor.js';
import { SystemSampler } from './system-info.js';
import { AGENT_VERSION } from './version.js';

export { describeError } from './errors.js';

/**
 * The edge agent (`rampart-edge`): registers the node once, long-polls the control plane for the
 * node's snapshot, applies it to a supervised nginx, keeps the last good snapshots on disk and
 * reports what it applied.
 *
 * The parts live beside this file: the apply step (apply.ts: nginx.conf rendered, nginx started or
 * reloaded when it changed, data plane pushed), the nginx supervisor (supervisor.ts), the status
 * reporter (status-reporter.ts) and the operator's commands (commands.ts, run by command-loop.ts).
 * A snapshot becomes good (written to disk, `current`) only once it applied.
 *
 * Everything that changes nginx runs one at a time (the apply lock): a snapshot from the poll, the
 * restart by the supervisor, the operator's commands (reboot, reset, log rotation) and the shutdown.
 */

export interface AgentOptions {
  /** Control plane URL; null = the one stored with the credentials. */
  controlPlane: string | null;
  /** Operator's join token; needed only before the first registration. */
  joinToken: string | null;
  /** Absolute path of the state directory. */
  stateDir: string;
  nginxBinary: string;
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
  /** How often ports that did not bind are tried again (supervisor.ts). */
  portRetryMs?: number;
  /** How often the supervisor checks that nginx holds the applied data plane (version and hash). */
  verifyMs?: number;
  backoffMinMs?: number;
  backoffMaxMs?: number;
  /** How often the node asks what it should probe as a monitor node (monitor.ts). */
  probeRefreshMs?: number;
}

export class Agent {
  readonly state: StateDir;
  readonly nginx: NginxProcess;
  private readonly log: Logger;
  private readonly options: Required<
    Pick<
      AgentOptions,
      'pollWaitSeconds' | 'heartbeatMs' | 'superviseMs' | 'portRetryMs' | 'verifyMs' | 'backoffMinMs' | 'backoffMaxMs'
    >
  >;
  /** nginx's admin endpoint; the secret is read (or made) at start. */
  private readonly admin: AdminEndpoint;
  private readonly applier: SnapshotApplier;
  private readonly supervisor: NginxSupervisor;
  private readonly status: StatusReporter;
  private readonly commands: CommandHost;

  private client: NodeClient | null = null;
  private credentials: Credentials | null = null;
  private applied: EdgeSnapshot | null = null;
  /** Version sent as `?version=`: the applied one, or a refused one so the control plane waits for a newer. */
  private lastSeen: string | null = null;
  private snapshotError = '';
  private nginxError = '';

  private readonly controller = new AbortController();
  private lock: Promise<unknown> = Promise.resolve();
  private running: Promise<void> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private controlPlaneReachable = true;
  private controlPlaneUrl = '';
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
      portRetryMs: config.portRetryMs ?? 5000,
      verifyMs: config.verifyMs ?? 30_000,
      backoffMinMs: config.backoffMinMs ?? 500,
      backoffMaxMs: config.backoffMaxMs ?? 10_000,
    };
    this.state = new StateDir(config.stateDir);
    this.nginx = new NginxProcess({
      prefix: this.state.nginxPrefix,
      errorLogPath: path.join(this.state.nginxPrefix, 'logs/error.log'),
      nginxBinary: config.nginxBinary,
    });
    this.system = new SystemSampler(config.stateDir, config.nginxBinary);
    this.admin = { socketPath: this.state.adminSocketPath, secret: '' };
    this.applier = new SnapshotApplier({
      nginx: this.nginx,
      prefix: this.state.nginxPrefix,
      admin: this.admin,
      adminSecretFile: this.state.adminSecretPath,
      ips: config.ips,
      luaDir: config.luaDir,
      portMap: config.portMap,
      listenAddress: config.listenAddress,
      workerProcesses: config.workerProcesses,
      nodeId: () => this.credentials?.nodeId ?? null,
    });
    this.supervisor = new NginxSupervisor({
      nginx: this.nginx,
      applier: this.applier,
      log: this.log,
      signal: this.signal,
      intervalMs: this.options.superviseMs,
      portRetryMs: this.options.portRetryMs,
      verifyMs: this.options.verifyMs,
      backoffMinMs: this.options.backoffMinMs,
      backoffMaxMs: this.options.backoffMaxMs,
      exclusive: (task) => this.exclusive(task),
      applied: () => this.applied,
      restartOutcome: (error) => {
        this.nginxError = error;
      },
      reportStatus: () => this.reportStatus(),
    });
    this.status = new StatusReporter({
      client: () => (this.credentials ? this.client : null),
      appliedVersion: () => this.appliedVersion,
      lastError: () => this.lastError,
      failedPorts: () => this.applier.failedPorts,
      ips: config.ips,
      system: this.system,
      log: this.log,
      signal: this.signal,
    });
    this.commands = {
      nginx: this.nginx,
      state: this.state,
      applier: this.applier,
      system: this.system,
      log: this.log,
      signal: this.signal,
      stateDir: config.stateDir,
      admin: this.admin,
      client: () => {
        if (!this.client) throw new Error('agent not started');
        return this.client;
      },
      applied: () => this.applied,
      snapshotError: () => this.snapshotError,
      takeSnapshot: (snapshot) => this.takeSnapshot(snapshot),
      exclusive: (task) => this.exclusive(task),
      forgetApplied: () => {
        this.applied = null;
        this.lastSeen = null;
      },
      nginxRecovered: () => {
        this.nginxError = '';
      },
      reportStatus: () => this.reportStatus(),
      switchedTo: (version) => {
        this.switchedTo = version;
      },
    };
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
    this.admin.secret = await this.state.adminSecret();
    await this.applier.prepare();
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

    this.state.snapshotKey = this.admin.secret;
    const refusedStored: string[] = [];
    const stored = await this.state.loadGood((version, err) => {
      refusedStored.push(err.message);
      this.log('error', 'snapshot.stored_refused', { version, error: err.message });
    });
    // Reported until a snapshot from the control plane applies.
    if (refusedStored.length > 0)
      this.snapshotError = `stored snapshot refused: ${refusedStored.join('; ')}`.slice(0, 2000);
    if (stored) {
      this.log('info', 'snapshot.restored', { version: stored.version });
      try {
        const result = await this.exclusive(() => this.applier.apply(stored));
        this.applied = stored;
        this.lastSeen = stored.version;
        this.scheduleRotation(stored.logRotateTime ?? null);
        this.log('info', 'snapshot.applied', { version: stored.version, source: 'disk', ...applySummary(result) });
      } catch (err) {
        this.nginxError = `stored snapshot ${stored.version}: ${describeError(err)}`;
        // Still the best known state: the supervisor retries it and the poll may bring a newer one.
        this.applied = stored;
        this.lastSeen = stored.version;
        this.log('error', 'snapshot.apply_failed', { version: stored.version, source: 'disk', error: this.nginxError });
      }
    }

    this.supervisor.start();
    this.heartbeat = setInterval(() => this.reportStatus(), this.options.heartbeatMs);
    this.running = this.run().catch((err: unknown) => {
      this.log('error', 'agent.failed', { error: describeError(err) });
    });
  }

  /** Stops polling and the supervisor, stops nginx gracefully (SIGQUIT) and waits for all of it. */
  async stop(): Promise<void> {
    if (!this.stopping) this.controller.abort(new Error('agent stopping'));
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.supervisor.stop();
    if (this.rotationTimer) clearTimeout(this.rotationTimer);
    await this.running;
    await this.probes?.stop();
    await this.supervisor.settled();
    await this.status.settled();
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
    const settings = this.applier.settingsFor(snapshot);
    if (settings !== null) {
      const check = nginxSettingsSchema.safeParse(settings);
      if (!check.success) {
        const issue = check.error.issues[0];
        const field = formatPath(issue?.path ?? []).replace(/^(httpPorts|httpsPorts)/, 'listen.$1');
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
        this.applier.nginxChanged = false;
        try {
          applied = await this.applier.apply(snapshot);
        } catch (err) {
          // A config nginx refused never went live; one that did (or a dead nginx) needs the old one back.
          const rollBack = this.applier.nginxChanged || !(await this.nginx.isRunning());
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
        ...applySummary(result),
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
      const result = await this.applier.apply(previous);
      if (result.nginx !== 'none' || result.push !== null) {
        this.log('info', 'snapshot.rolled_back', { version: previous.version, ...applySummary(result) });
      }
    } catch (err) {
      this.nginxError = `rollback to ${previous.version} failed: ${describeError(err)}`;
      this.log('error', 'snapshot.rollback_failed', { version: previous.version, error: describeError(err) });
    }
  }

  /** Sends a status report now (coalesced: at most one in flight, one more queued). */
  reportStatus(): void {
    if (this.stopping) return;
    this.status.report();
  }

  /** Runs one operator command (see commands.ts); answers the result message, throws on failure. */
  private execute(command: EdgeCommand): Promise<CommandOutcome> {
    return executeCommand(this.commands, command);
  }

  /**
   * Stops polling, the supervisor and the timers but leaves nginx serving: for a restart onto a new
   * release, whose start-up adopts the running nginx (as after a crash) and reloads it when its
   * config differs (the Lua directory of the new release).
   */
  async detach(): Promise<void> {
    if (!this.stopping) this.controller.abort(new Error('agent restarting'));
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.supervisor.stop();
    if (this.rotationTimer) clearTimeout(this.rotationTimer);
    await this.running;
    await this.supervisor.settled();
    await this.status.settled();
    await this.lock;
    this.log('info', 'agent.detached', { appliedVersion: this.appliedVersion, nginxPid: await this.nginx.masterPid() });
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
      rotateLogs(this.commands)
        .catch((err: unknown) => this.log('error', 'logs.rotate_failed', { error: describeError(err) }))
        .finally(() => {
          if (this.rotationTime === time) this.scheduleRotation(time);
        });
    }, at.getTime() - Date.now());
  }
}
