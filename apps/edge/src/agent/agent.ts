import path from 'node:path';
import type { EdgeCommand } from '@rampart/contract';
import type { PoolKeeper } from '../challenge-pool/pool.js';
import type { AdminEndpoint } from '../data-plane/admin-client.js';
import { NginxProcess } from '../nginx/nginx-process.js';
import type { AgentOptions } from './agent-options.js';
import { type AgentTimings, agentParts, STATE_LOCK_WAIT_MS } from './agent-parts.js';
import { type CommandOutcome, runCommandLoop } from './commands/command-loop.js';
import { type CommandHost, executeCommand, rotateLogs } from './commands/commands.js';
import { DailyRotation } from './commands/log-rotate.js';
import { describeError } from './errors.js';
import type { BlockReporter } from './events/block-list.js';
import type { EventProcess } from './events/event-process.js';
import type { KernelPushDown } from './l4/kernel-push-down.js';
import { runL4Counters } from './l4/l4-counter-worker.js';
import type { L4Firewall } from './l4/l4-firewall.js';
import { jsonLineLogger, type Logger } from './log.js';
import { ProbeLoop } from './monitoring/monitor.js';
import type { NodeExporterServer } from './monitoring/node-exporter.js';
import { NodeClient } from './node-api/node-client.js';
import { registerWithBackoff } from './node-api/registration.js';
import type { StatusReporter } from './node-api/status-reporter.js';
import type { SnapshotApplier } from './plane/apply.js';
import type { PlaneLoop } from './plane/plane-loop.js';
import type { SnapshotLoop } from './plane/snapshot-loop.js';
import { blockedAncestor, type Credentials, StateDir } from './process/state.js';
import { lockStateDir, type StateLock } from './process/state-lock.js';
import type { NginxSupervisor } from './process/supervisor.js';
import { AGENT_VERSION } from './version.js';

export type { AgentOptions } from './agent-options.js';
export { STATE_LOCK_WAIT_MS } from './agent-parts.js';
export { describeError } from './errors.js';
export { autoNft, type KernelPushDown, kernelPushDown } from './l4/kernel-push-down.js';

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
 * at a lower CPU priority (event-process.ts, event-worker.ts) and the operator's commands (commands.ts, run by
 * command-loop.ts); agent-parts.ts wires them, agent-options.ts lists the options. This file starts and stops
 * them and holds the apply lock.
 *
 * Everything that changes nginx runs one at a time (the apply lock): a snapshot from the poll, the
 * restart by the supervisor, the operator's commands (reboot, reset, log rotation) and the shutdown.
 */

export class Agent {
  readonly state: StateDir;
  readonly nginx: NginxProcess;
  private readonly log: Logger;
  private readonly options: AgentTimings;
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
  /** The daily log rotation the applied snapshot asks for. */
  private readonly rotation: DailyRotation;
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
    this.admin = { socketPath: this.state.adminSocketPath, secret: '' };
    const parts = agentParts({
      config,
      options: this.options,
      state: this.state,
      nginx: this.nginx,
      admin: this.admin,
      log: this.log,
      signal: this.signal,
      client: () => this.client,
      registeredClient: () => (this.credentials ? this.client : null),
      nodeId: () => this.credentials?.nodeId ?? null,
      exclusive: (task) => this.exclusive(task),
      reportStatus: () => this.reportStatus(),
      appliedVersion: () => this.appliedVersion,
      lastError: () => this.lastError,
      scheduleRotation: (time) => this.rotation.schedule(time),
      switchedTo: (version) => {
        this.switchedTo = version;
      },
    });
    this.l4 = parts.l4;
    this.l4Nft = parts.l4Nft;
    this.l4Off = parts.l4Off;
    this.pushDown = parts.pushDown;
    this.planes = parts.planes;
    this.applier = parts.applier;
    this.snapshots = parts.snapshots;
    this.supervisor = parts.supervisor;
    this.status = parts.status;
    this.blocks = parts.blocks;
    this.exporter = parts.exporter;
    this.events = parts.events;
    this.pool = parts.pool;
    this.commands = parts.commands;
    this.rotation = new DailyRotation(() => rotateLogs(this.commands), this.log);
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
    this.rotation.stop();
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
}
