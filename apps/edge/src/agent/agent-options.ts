import type { AggregateOptions } from './events/aggregate-settings.js';
import type { EventWorkerCommand } from './events/event-process.js';
import type { Logger } from './log.js';
import type { PlaneOriginOptions } from './plane/plane-loop.js';

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
