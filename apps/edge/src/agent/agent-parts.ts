import { PoolKeeper } from '../challenge-pool/pool.js';
import type { AdminEndpoint } from '../data-plane/admin-client.js';
import type { NginxProcess } from '../nginx/nginx-process.js';
import type { AgentOptions } from './agent-options.js';
import type { CommandHost } from './commands/commands.js';
import { describeError } from './errors.js';
import { aggregateSettings } from './events/aggregate-settings.js';
import { BlockReporter } from './events/block-list.js';
import { bundledEventWorker, EVENTS_NICE_DEFAULT, EventProcess } from './events/event-process.js';
import { SPOOL_DEFAULT_MEGABYTES } from './events/event-spool.js';
import { autoNft, type KernelPushDown, kernelPushDown } from './l4/kernel-push-down.js';
import { L4Firewall } from './l4/l4-firewall.js';
import type { Logger } from './log.js';
import { NodeExporterServer } from './monitoring/node-exporter.js';
import type { NodeClient } from './node-api/node-client.js';
import { StatusReporter } from './node-api/status-reporter.js';
import { SnapshotApplier } from './plane/apply.js';
import { GeoDatabaseFiles } from './plane/geo-database.js';
import { PlaneLog } from './plane/plane-log.js';
import { PlaneLoop } from './plane/plane-loop.js';
import { AbuseIPFiles } from './plane/reputation-list.js';
import { SnapshotLoop } from './plane/snapshot-loop.js';
import type { StateDir } from './process/state.js';
import { NginxSupervisor } from './process/supervisor.js';
import { SystemSampler } from './process/system-info.js';

/** A restart (self-restart, the service manager after a crash) finds the previous agent's lock gone within this. */
export const STATE_LOCK_WAIT_MS = 3000;

/** The agent's timings, its options with their defaults. */
export type AgentTimings = Required<
  Pick<
    AgentOptions,
    'pollWaitSeconds' | 'heartbeatMs' | 'superviseMs' | 'portRetryMs' | 'verifyMs' | 'backoffMinMs' | 'backoffMaxMs'
  >
>;

/** What the parts read of the agent that holds them (agent.ts): its settings, and its state as it changes. */
export interface AgentHost {
  readonly config: AgentOptions;
  readonly options: AgentTimings;
  readonly state: StateDir;
  readonly nginx: NginxProcess;
  /** nginx's admin endpoint; the secret is read (or made) at start. */
  readonly admin: AdminEndpoint;
  readonly log: Logger;
  readonly signal: AbortSignal;
  /** The node API's client once the agent started (null before). */
  client(): NodeClient | null;
  /** The client once the node is registered (null before). */
  registeredClient(): NodeClient | null;
  nodeId(): number | null;
  /** Runs `task` when every earlier nginx-changing task has finished (the apply lock). */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  reportStatus(): void;
  appliedVersion(): string;
  lastError(): string;
  /** (Re)arms the daily log rotation for `time` (`HH:MM` UTC); null disarms it. */
  scheduleRotation(time: string | null): void;
  /** An upgrade switched releases to `version` (the agent restarts onto it once its result is reported). */
  switchedTo(version: string): void;
}

/** Fetches a file by its digest with `get` through the node's client; refused while the node is not registered. */
function fileFetcher(host: AgentHost, get: (client: NodeClient, sha256: string) => Promise<Buffer>) {
  return async (sha256: string): Promise<Buffer> => {
    const client = host.client();
    if (!client) throw new Error('not registered');
    return get(client, sha256);
  };
}

/**
 * The agent's parts, wired to each other and to the agent: the kernel's layer-4 firewall and the
 * push-down, the data plane's loop, the apply step, the snapshot poll, the supervisor, the status
 * and block reporters, the metrics, the request events' process, the challenge pool and the
 * commands' host. Nothing starts here (agent.ts starts and stops them).
 */
export function agentParts(host: AgentHost) {
  const { config, options, state, nginx, admin, log, signal } = host;
  const system = new SystemSampler(config.stateDir, config.nginxBinary);
  const setting = config.l4Firewall ?? 'auto';
  const nft = setting === 'off' ? { reason: 'turned off' } : setting === 'auto' ? autoNft() : setting;
  const l4 = 'nft' in nft ? new L4Firewall({ nft: nft.nft, log }) : null;
  const l4Nft = 'nft' in nft ? nft.nft : null;
  const l4Off = 'reason' in nft ? nft.reason : '';
  const pushDown = kernelPushDown(l4, () => snapshots.applied?.l4KernelBlocks === true);
  const geoFiles = new GeoDatabaseFiles(
    state.geoDir,
    fileFetcher(host, (client, sha256) => client.geoDatabase(sha256, signal)),
    log,
  );
  const reputationFiles = new AbuseIPFiles(
    state.reputationDir,
    fileFetcher(host, (client, sha256) => client.abuseIPs(sha256, signal)),
    log,
  );
  const planes =
    (config.dataPlane ?? 'entries') === 'entries'
      ? new PlaneLoop({
          admin: admin,
          nginx: nginx,
          log: log,
          signal: signal,
          exclusive: (task) => host.exclusive(task),
          pollWaitSeconds: options.pollWaitSeconds,
          backoffMinMs: options.backoffMinMs,
          backoffMaxMs: options.backoffMaxMs,
          planeLog: new PlaneLog(state.planeDir, () => admin.secret || null),
          geo: geoFiles,
          reputation: reputationFiles,
          reportStatus: () => host.reportStatus(),
          origins: config.origins,
          unavailable: () => {
            // The snapshot's own data plane goes to nginx again (verify pushes it when it differs).
            const snapshot = snapshots.applied;
            if (snapshot)
              host
                .exclusive(() => applier.verify(snapshot))
                .catch((err: unknown) => {
                  log('error', 'dataplane.push_failed', { error: describeError(err) });
                });
          },
        })
      : null;
  const applier = new SnapshotApplier({
    nginx: nginx,
    prefix: state.nginxPrefix,
    admin: admin,
    adminSecretFile: state.adminSecretPath,
    ips: config.ips,
    luaDir: config.luaDir,
    portMap: config.portMap,
    listenAddress: config.listenAddress,
    workerProcesses: config.workerProcesses,
    refusalTallies: config.eventAggregates !== false && config.refusalTallies !== false,
    nodeId: () => host.nodeId(),
    geo: { dir: state.geoDir, files: geoFiles },
    l4: l4 ?? undefined,
    reputation: { dir: state.reputationDir, files: reputationFiles },
    plane: planes ?? undefined,
  });
  const snapshots = new SnapshotLoop({
    applier: applier,
    nginx: nginx,
    state: state,
    log: log,
    signal: signal,
    exclusive: (task) => host.exclusive(task),
    pollWaitSeconds: options.pollWaitSeconds,
    backoffMinMs: options.backoffMinMs,
    backoffMaxMs: options.backoffMaxMs,
    served: (snapshot) => {
      host.scheduleRotation(snapshot.logRotateTime ?? null);
      // Blocks that came while the push-down was off go down now; a refused push is kept in its lastError.
      pushDown?.catchUp().catch(() => {});
    },
    reportStatus: () => host.reportStatus(),
  });
  const supervisor = new NginxSupervisor({
    nginx: nginx,
    applier: applier,
    log: log,
    signal: signal,
    intervalMs: options.superviseMs,
    portRetryMs: options.portRetryMs,
    verifyMs: options.verifyMs,
    backoffMinMs: options.backoffMinMs,
    backoffMaxMs: options.backoffMaxMs,
    exclusive: (task) => host.exclusive(task),
    applied: () => snapshots.applied,
    restartOutcome: (error) => {
      snapshots.nginxError = error;
    },
    reportStatus: () => host.reportStatus(),
  });
  const status = new StatusReporter({
    client: () => host.registeredClient(),
    appliedVersion: () => host.appliedVersion(),
    planeVersion: () => planes?.heldInStore ?? null,
    lastError: () => host.lastError(),
    failedPorts: () => applier.failedPorts,
    ips: config.ips,
    system: system,
    log: log,
    signal: signal,
  });
  const blocks = new BlockReporter({
    admin: admin,
    // The layer-7 DROP + Blacklist blocks go down to the kernel too when the zone asks for it.
    kernel: pushDown,
    // Floods escalated to the kernel go down whatever the zone's push-down of rule blocks says.
    escalate: l4 ? (entries) => l4?.block(entries) ?? Promise.resolve() : undefined,
    client: () => host.registeredClient(),
    log: log,
    signal: signal,
    backoffMinMs: options.backoffMinMs,
    backoffMaxMs: options.backoffMaxMs,
  });
  const exporter =
    config.metricsPort === undefined || config.metricsPort === null
      ? null
      : new NodeExporterServer({
          port: config.metricsPort,
          host: config.listenAddress,
          setting: () => snapshots.applied?.nodeExporter ?? null,
          log: log,
        });
  const events = new EventProcess({
    onStats: (stats) => exporter?.add(stats.counts, stats.spoolBytes, stats.spoolBatches),
    command: config.eventWorker ?? bundledEventWorker(),
    settings: {
      logFile: state.accessLogPath,
      eventsDir: state.eventsDir,
      spoolBytes: (config.eventSpoolMegabytes ?? SPOOL_DEFAULT_MEGABYTES) * 1024 * 1024,
      ...(config.eventCutMs !== undefined ? { cutMs: config.eventCutMs } : {}),
      ...aggregateSettings(config, {
        socketPath: state.adminSocketPath,
        secretFile: state.adminSecretPath,
      }),
      nice: config.eventsNice ?? EVENTS_NICE_DEFAULT,
      backoffMinMs: options.backoffMinMs,
      backoffMaxMs: options.backoffMaxMs,
      lockWaitMs: STATE_LOCK_WAIT_MS,
    },
    log: log,
    signal: signal,
    backoffMinMs: options.backoffMinMs,
    backoffMaxMs: options.backoffMaxMs,
  });
  const pool = new PoolKeeper({
    admin: admin,
    needed: () =>
      ((planes?.available ? planes.meta?.challenge : snapshots.applied?.dataPlane.challenge)?.keys.length ?? 0) > 0,
    log: log,
    signal: signal,
  });
  const commands: CommandHost = {
    nginx: nginx,
    state: state,
    applier: applier,
    system: system,
    log: log,
    signal: signal,
    stateDir: config.stateDir,
    admin: admin,
    client: () => {
      const client = host.client();
      if (!client) throw new Error('agent not started');
      return client;
    },
    applied: () => snapshots.applied,
    snapshotError: () => snapshots.snapshotError,
    takeSnapshot: (snapshot) => snapshots.take(snapshot),
    exclusive: (task) => host.exclusive(task),
    forgetApplied: async () => {
      snapshots.forget();
      await planes?.forget();
    },
    cacheEpoch: () => (planes?.available ? planes.meta?.cacheEpoch : snapshots.applied?.dataPlane.cacheEpoch) ?? 0,
    refreshPlane: async () => {
      const client = host.client();
      if (!planes?.available || !client) return;
      const answer = await planes.fetch(client, 0);
      if (answer !== null) await planes.take(answer);
    },
    nginxRecovered: () => {
      snapshots.nginxError = '';
    },
    reportStatus: () => host.reportStatus(),
    kernelUnblock: (ips) => pushDown?.unblock(ips) ?? Promise.resolve(),
    kernelBlock: (entries) => l4?.block(entries) ?? Promise.reject(new Error(`no kernel firewall: ${l4Off}`)),
    switchedTo: (version) => host.switchedTo(version),
  };
  return {
    l4,
    l4Nft,
    l4Off,
    pushDown: pushDown as KernelPushDown | undefined,
    planes,
    applier,
    snapshots,
    supervisor,
    status,
    blocks,
    exporter,
    events,
    pool,
    commands,
  };
}

export type AgentParts = ReturnType<typeof agentParts>;
