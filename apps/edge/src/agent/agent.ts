import path from 'node:path';
import type { EdgeCommand } from '@rampart/contract';
import { PoolKeeper } from '../challenge-pool/pool.js';
import type { AdminEndpoint } from '../data-plane/admin-client.js';
import { NginxProcess } from '../nginx/nginx-process.js';
import { type AggregateOptions, aggregateSettings } from './aggregate-settings.js';
import { SnapshotApplier } from './apply.js';
import { BlockReporter } from './block-list.js';
import { type CommandOutcome, runCommandLoop } from './command-loop.js';
import { type CommandHost, executeCommand, rotateLogs } from './commands.js';
import { describeError } from './errors.js';
import { bundledEventWorker, EVENTS_NICE_DEFAULT, EventProcess, type EventWorkerCommand } from './event-process.js';
import { SPOOL_DEFAULT_MEGABYTES } from './event-spool.js';
import { GeoDatabaseFiles } from './geo-database.js';
import { autoNft, type KernelPushDown, kernelPushDown } from './kernel-push-down.js';
import { runL4Counters } from './l4-counter-worker.js';
import { L4Firewall } from './l4-firewall.js';
import { jsonLineLogger, type Logger } from './log.js';
import { nextDailyTime } from './log-rotate.js';
import { ProbeLoop } from './monitor.js';
import { NodeClient } from './node-client.js';
import { NodeExporterServer } from './node-exporter.js';
import { PlaneLog } from './plane-log.js';
import { PlaneLoop, type PlaneOriginOptions } from './plane-loop.js';
import { registerWithBackoff } from './registration.js';
import { AbuseIPFiles } from './reputation-list.js';
import { SnapshotLoop } from './snapshot-loop.js';
import { blockedAncestor, type Credentials, StateDir } from './state.js';
import { lockStateDir, type StateLock } from './state-lock.js';
import { StatusReporter } from './status-reporter.js';
import { NginxSupervisor } from './supervisor.js';
import { SystemSampler } from './system-info.js';
import { AGENT_VERSION } from './version.js';

export { describeError } from './errors.js';
export { autoNft, type KernelPushDown, kernelPushDown } from './kernel-push-down.js';

/**
 * The edge agent (`rampart-edge`): registers the node once, long-polls the control plane for the
 * node's snapshot, applies it to a supervised nginx, keeps the last good snapshots on disk and
 * reports what it applied.
 *
 * The parts live beside this file: registration (registration.ts), the snapshot poll with its
 * rollback and the good snapshots on disk (snapshot-loop.ts), the apply step (apply.ts: nginx.conf
 * rendered, nginx started or reloaded when it changed, data plane pushed), the nginx supervisor
 * (supervisor.ts), the status reporter (status-reporter.ts), the block-list reporter (block-list.ts),
 * the request events read from nginx's access log, spooled and shipped by a process of their own
 * at a lower CPU priority (event-process.ts, event-worker.ts) and the operator's commands (commands.ts, run by command-loop.ts). This file starts and stops them and holds the apply lock.
 *
 * Everything that changes nginx runs one at a time (the apply lock): a snapshot from the poll, the
 * restart by the supervisor, the operator's commands (reboot, reset, log rotation) and the shutdown.
 */

/** The aggregate options (eventAggregates, refusalTallies, aggregatePartialSeconds): aggregate-settings.ts. */
export interface AgentOptions extends PlaneOriginOptions, AggregateOptions {
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
  /** How long a start waits for another agent's lock on the state directory before it refuses (state-lock.ts). */
  lockWaitMs?: number;
  /** Disk the spool of request events may use before its oldest batches are dropped (event-spool.ts). */
  eventSpoolMegabytes?: number;
  /** How long a batch of request events collects before it is cut (event-collector.ts; tests shorten it). */
  eventCutMs?: number;
  /** How the request events' process is started (event-process.ts): this bundle unless given (tests run the sources). */
  eventWorker?: EventWorkerCommand;
  /** The nice value the request events' process runs at (process-priority.ts). */
  eventsNice?: number;
  /**
   * The node's kernel firewall for the layer-4 rules (l4-firewall.ts): `auto` (the default) runs it
   * when the agent is root and finds `nft`; `off` never touches nftables; `{ nft }` runs the given
   * command (tests run nft in a network namespace).
   */
  l4Firewall?: 'auto' | 'off' | { nft: readonly string[] };
  /** How often the layer-4 counters are read (default 5 s; tests shorten it). */
  l4CounterIntervalMs?: number;
  /**
   * The port of the node's Prometheus metrics (node-exporter.ts), bound on `listenAddress`;
   * absent or null: not served (the command line serves NODE_EXPORTER_PORT unless told 0).
   */
  metricsPort?: number | null;
  /**
   * How the node takes its data plane: `entries` (the default) as versioned entries and deltas
   * (plane-loop.ts, GET /api/edge/v1/plane), or `snapshot`, inside the whole snapshot as before.
   */
  dataPlane?: 'entries' | 'snapshot';
}

/** A restart (self-restart, the service manager after a crash) finds the previous agent's lock gone within this. */
export const STATE_LOCK_WAIT_MS = 3000;

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
  private readonly snapshots: SnapshotLoop;
  /** The data plane as entries; null when the node takes it inside the snapshot. */
  private readonly planes: PlaneLoop | null;
  private readonly supervisor: NginxSupervisor;
  private readonly status: StatusReporter;
  private readonly blocks: BlockReporter;
  /** The layer-7 blocks pushed down to the kernel (null without a firewall). */
  private readonly pushDown: KernelPushDown | undefined;
  /** The kernel's layer-4 firewall; null when the node does not run one (l4Firewall, autoNft). */
  readonly l4: L4Firewall | null;
  private readonly l4Off: string;
  /** The nft command of the kernel firewall (its counters are read with it). */
  private readonly l4Nft: readonly string[] | null;
  /** The request events' process, from start to stop (it runs before the node is registered). */
  private readonly events: EventProcess;
  private readonly pool: PoolKeeper;
  private readonly commands: CommandHost;
  /** The node's Prometheus metrics, when a port is given. */
  readonly exporter: NodeExporterServer | null;

  private client: NodeClient | null = null;
  private credentials: Credentials | null = null;
  /** The lock of the state directory, held from start until stop or detach. */
  private stateLock: StateLock | null = null;

  private readonly controller = new AbortController();
  private lock: Promise<unknown> = Promise.resolve();
  private running: Promise<void> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
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
    const setting = config.l4Firewall ?? 'auto';
    const nft = setting === 'off' ? { reason: 'turned off' } : setting === 'auto' ? autoNft() : setting;
    this.l4 = 'nft' in nft ? new L4Firewall({ nft: nft.nft, log: this.log }) : null;
    this.l4Nft = 'nft' in nft ? nft.nft : null;
    this.l4Off = 'reason' in nft ? nft.reason : '';
    this.pushDown = kernelPushDown(this.l4, () => this.snapshots.applied?.l4KernelBlocks === true);
    const geoFiles = new GeoDatabaseFiles(
      this.state.geoDir,
      async (sha256) => {
        if (!this.client) throw new Error('not registered');
        return this.client.geoDatabase(sha256, this.signal);
      },
      this.log,
    );
    const reputationFiles = new AbuseIPFiles(
      this.state.reputationDir,
      async (sha256) => {
        if (!this.client) throw new Error('not registered');
        return this.client.abuseIPs(sha256, this.signal);
      },
      this.log,
    );
    this.planes =
      (config.dataPlane ?? 'entries') === 'entries'
        ? new PlaneLoop({
            admin: this.admin,
            nginx: this.nginx,
            log: this.log,
            signal: this.signal,
            exclusive: (task) => this.exclusive(task),
            pollWaitSeconds: this.options.pollWaitSeconds,
            backoffMinMs: this.options.backoffMinMs,
            backoffMaxMs: this.options.backoffMaxMs,
            planeLog: new PlaneLog(this.state.planeDir, () => this.admin.secret || null),
            geo: geoFiles,
            reputation: reputationFiles,
            reportStatus: () => this.reportStatus(),
            origins: config.origins,
            unavailable: () => {
              // The snapshot's own data plane goes to nginx again (verify pushes it when it differs).
              const snapshot = this.snapshots.applied;
              if (snapshot)
                this.exclusive(() => this.applier.verify(snapshot)).catch((err: unknown) => {
                  this.log('error', 'dataplane.push_failed', { error: describeError(err) });
                });
            },
          })
        : null;
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
      refusalTallies: config.eventAggregates !== false && config.refusalTallies !== false,
      nodeId: () => this.credentials?.nodeId ?? null,
      geo: { dir: this.state.geoDir, files: geoFiles },
      l4: this.l4 ?? undefined,
      reputation: { dir: this.state.reputationDir, files: reputationFiles },
      plane: this.planes ?? undefined,
    });
    this.snapshots = new SnapshotLoop({
      applier: this.applier,
      nginx: this.nginx,
      state: this.state,
      log: this.log,
      signal: this.signal,
      exclusive: (task) => this.exclusive(task),
      pollWaitSeconds: this.options.pollWaitSeconds,
      backoffMinMs: this.options.backoffMinMs,
      backoffMaxMs: this.options.backoffMaxMs,
      served: (snapshot) => {
        this.scheduleRotation(snapshot.logRotateTime ?? null);
        // Blocks that came while the push-down was off go down now; a refused push is kept in its lastError.
        this.pushDown?.catchUp().catch(() => {});
      },
      reportStatus: () => this.reportStatus(),
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
      applied: () => this.snapshots.applied,
      restartOutcome: (error) => {
        this.snapshots.nginxError = error;
      },
      reportStatus: () => this.reportStatus(),
    });
    this.status = new StatusReporter({
      client: () => (this.credentials ? this.client : null),
      appliedVersion: () => this.appliedVersion,
      planeVersion: () => this.planes?.heldInStore ?? null,
      lastError: () => this.lastError,
      failedPorts: () => this.applier.failedPorts,
      ips: config.ips,
      system: this.system,
      log: this.log,
      signal: this.signal,
    });
    this.blocks = new BlockReporter({
      admin: this.admin,
      // The layer-7 DROP + Blacklist blocks go down to the kernel too when the zone asks for it.
      kernel: this.pushDown,
      // Floods escalated to the kernel go down whatever the zone's push-down of rule blocks says.
      escalate: this.l4 ? (entries) => this.l4?.block(entries) ?? Promise.resolve() : undefined,
      client: () => (this.credentials ? this.client : null),
      log: this.log,
      signal: this.signal,
      backoffMinMs: this.options.backoffMinMs,
      backoffMaxMs: this.options.backoffMaxMs,
    });
    this.exporter =
      config.metricsPort === undefined || config.metricsPort === null
        ? null
        : new NodeExporterServer({
            port: config.metricsPort,
            host: config.listenAddress,
            setting: () => this.snapshots.applied?.nodeExporter ?? null,
            log: this.log,
          });
    this.events = new EventProcess({
      onStats: (stats) => this.exporter?.add(stats.counts, stats.spoolBytes, stats.spoolBatches),
      command: config.eventWorker ?? bundledEventWorker(),
      settings: {
        logFile: this.state.accessLogPath,
        eventsDir: this.state.eventsDir,
        spoolBytes: (config.eventSpoolMegabytes ?? SPOOL_DEFAULT_MEGABYTES) * 1024 * 1024,
        ...(config.eventCutMs !== undefined ? { cutMs: config.eventCutMs } : {}),
        ...aggregateSettings(config, {
          socketPath: this.state.adminSocketPath,
          secretFile: this.state.adminSecretPath,
        }),
        nice: config.eventsNice ?? EVENTS_NICE_DEFAULT,
        backoffMinMs: this.options.backoffMinMs,
        backoffMaxMs: this.options.backoffMaxMs,
        lockWaitMs: STATE_LOCK_WAIT_MS,
      },
      log: this.log,
      signal: this.signal,
      backoffMinMs: this.options.backoffMinMs,
      backoffMaxMs: this.options.backoffMaxMs,
    });
    this.pool = new PoolKeeper({
      admin: this.admin,
      needed: () =>
        ((this.planes?.available ? this.planes.meta?.challenge : this.snapshots.applied?.dataPlane.challenge)?.keys
          .length ?? 0) > 0,
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
      applied: () => this.snapshots.applied,
      snapshotError: () => this.snapshots.snapshotError,
      takeSnapshot: (snapshot) => this.snapshots.take(snapshot),
      exclusive: (task) => this.exclusive(task),
      forgetApplied: async () => {
        this.snapshots.forget();
        await this.planes?.forget();
      },
      cacheEpoch: () =>
        (this.planes?.available ? this.planes.meta?.cacheEpoch : this.snapshots.applied?.dataPlane.cacheEpoch) ?? 0,
      refreshPlane: async () => {
        const client = this.client;
        if (!this.planes?.available || !client) return;
        const answer = await this.planes.fetch(client, 0);
        if (answer !== null) await this.planes.take(answer);
      },
      nginxRecovered: () => {
        this.snapshots.nginxError = '';
      },
      reportStatus: () => this.reportStatus(),
      kernelUnblock: (ips) => this.pushDown?.unblock(ips) ?? Promise.resolve(),
      kernelBlock: (entries) =>
        this.l4?.block(entries) ?? Promise.reject(new Error(`no kernel firewall: ${this.l4Off}`)),
      switchedTo: (version) => {
        this.switchedTo = version;
      },
    };
  }

  /** The version of the snapshot nginx serves now ('' before the first). */
  get appliedVersion(): string {
    return this.snapshots.applied?.version ?? '';
  }

  get lastError(): string {
    return [this.snapshots.lastError, this.planes?.error ?? '', this.applier.l4Error]
      .filter((e) => e !== '')
      .join('; ')
      .slice(0, 2000);
  }

  /** The request events' process (null between its death and its restart). */
  get eventWorkerPid(): number | null {
    return this.events.pid;
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
   * long poll running in the background. Throws only for a configuration that can never work, or
   * (StateLockedError) when another agent runs on the same state directory: then nothing was touched.
   */
  async start(): Promise<void> {
    this.stateLock = await lockStateDir(this.config.stateDir, this.config.lockWaitMs ?? STATE_LOCK_WAIT_MS, (error) =>
      this.log('error', 'agent.lock_lost', { error: error.message }),
    );
    try {
      await this.startLocked();
    } catch (err) {
      await this.releaseLock();
      throw err;
    }
  }

  private async releaseLock(): Promise<void> {
    const lock = this.stateLock;
    this.stateLock = null;
    await lock?.release();
  }

  private async startLocked(): Promise<void> {
    await this.state.prepare();
    // As root the agent's nginx runs its workers as nobody, who must pass every parent of the prefix.
    const blocked = process.getuid?.() === 0 ? await blockedAncestor(this.config.stateDir) : null;
    if (blocked)
      this.log('error', 'agent.state_dir_unreachable', {
        stateDir: this.config.stateDir,
        blocked: blocked.dir,
        mode: blocked.mode,
        error: `nginx's workers (nobody) cannot pass ${blocked.dir} (mode ${blocked.mode}): request bodies over the buffer, data-plane pushes over 16 MiB and cache writes fail with 500; give it o+x`,
      });
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
      l4Firewall: this.l4 ? 'on' : `off: ${this.l4Off}`,
    });

    this.state.snapshotKey = this.admin.secret;
    // Before nginx serves: a first start skips only the lines an older agent's nginx left.
    if (this.credentials) this.events.setCredentials(this.credentials);
    await this.events.start();
    // The plane first: serving the stored snapshot fills nginx's store from it.
    await this.planes?.restore();
    await this.snapshots.restore();
    // The metrics are no reason not to serve: a port that does not bind is said and left.
    await this.exporter?.start().catch((err: unknown) => {
      this.log('error', 'node_exporter.not_listening', { port: this.config.metricsPort, error: describeError(err) });
    });

    this.supervisor.start();
    this.heartbeat = setInterval(() => this.reportStatus(), this.options.heartbeatMs);
    this.running = this.run().catch((err: unknown) => {
      this.log('error', 'agent.failed', { error: describeError(err) });
    });
  }

  /** Stops polling and the supervisor, stops nginx gracefully (SIGQUIT) and waits for all of it. */
  async stop(): Promise<void> {
    // Only the agent holding the state directory stops its nginx: one refused by the lock (or
    // detached for a restart) leaves the nginx of the agent that holds it serving.
    const owner = this.stateLock !== null;
    await this.halt('agent stopping');
    await this.exporter?.stop();
    await this.events.stopped();
    await this.probes?.stop();
    await this.supervisor.settled();
    await this.status.settled();
    if (owner) {
      await this.exclusive(async () => {
        await this.nginx.stop();
      });
    }
    await this.releaseLock();
    this.log('info', 'agent.stopped', { appliedVersion: this.appliedVersion });
  }

  /** Stops the poll, the command loop, the supervisor and the timers, and waits for the poll and the command loop. */
  private async halt(reason: string): Promise<void> {
    if (!this.stopping) this.controller.abort(new Error(reason));
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.supervisor.stop();
    if (this.rotationTimer) clearTimeout(this.rotationTimer);
    await this.running;
  }

  private async run(): Promise<void> {
    await this.register();
    if (this.stopping) return;
    this.reportStatus();
    const client = this.client;
    if (!client) return;
    this.probes = new ProbeLoop(client, this.log, this.config.probeRefreshMs);
    this.probes.start();
    client.snapshotDataPlane = () => (this.planes?.available ? 'none' : 'whole');
    await this.planes?.probe(client);
    await Promise.all([
      this.snapshots.poll(client),
      ...(this.planes ? [this.planes.poll(client)] : []),
      this.blocks.run(),
      this.pool.run(),
      // The kernel's layer-4 counters, read and shipped while the node runs its firewall.
      ...(this.l4 && this.l4Nft
        ? [
            runL4Counters({
              dir: this.state.l4CountersDir,
              ports: () => this.l4?.applied?.ports ?? [],
              client: () => this.client,
              log: this.log,
              signal: this.signal,
              nft: this.l4Nft,
              intervalMs: this.config.l4CounterIntervalMs,
            }),
          ]
        : []),
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
    await registerWithBackoff({
      client,
      state: this.state,
      log: this.log,
      signal: this.signal,
      controlPlane: this.controlPlaneUrl,
      joinToken: this.config.joinToken ?? '',
      hostname: this.config.hostname,
      ips: this.config.ips,
      backoffMinMs: this.options.backoffMinMs,
      backoffMaxMs: this.options.backoffMaxMs,
      registered: (credentials) => {
        this.credentials = credentials;
        this.events.setCredentials(credentials);
      },
    });
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
    await this.halt('agent restarting');
    await this.exporter?.stop();
    await this.events.stopped();
    await this.supervisor.settled();
    await this.status.settled();
    await this.lock;
    // The agent that takes over (the service manager's restart, or --self-restart) locks it again.
    await this.releaseLock();
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
