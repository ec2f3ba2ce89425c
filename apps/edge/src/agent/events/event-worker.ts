import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pause } from '../backoff.js';
import { errorText, type Logger, type LogLevel } from '../log.js';
import { countEvent, emptyCounts, type NodeCounts } from '../monitoring/node-metrics.js';
import { NodeClient } from '../node-api/node-client.js';
import { CpuGauge } from '../process/cpu-gauge.js';
import { lowerPriority } from '../process/process-priority.js';
import type { Credentials } from '../process/state.js';
import { lockStateDir } from '../process/state-lock.js';
import type { LogCursor } from './access-log-reader.js';
import { AggregateFeed } from './aggregate-feed.js';
import { EventCollector } from './event-collector.js';
import { EventShipper } from './event-shipper.js';
import { EventSpool } from './event-spool.js';

/**
 * The request events' own process (docs/decisions.md "Traffic analytics at the edge"): the
 * reader, the collector, the spool and the shipper (event-collector.ts, event-spool.ts,
 * event-shipper.ts) run here, started and supervised by the agent (event-process.ts) at a lower CPU
 * priority (process-priority.ts) and slowed to one batch a second while the rest of the node keeps
 * the CPUs busy (cpu-gauge.ts), so that reading, parsing and gzipping every request's line waits
 * while nginx needs the cores; the log files and the spool hold what waits. It is the agent's own
 * bundle started with EVENT_WORKER_ARG, and talks to the agent over the IPC channel only: its
 * settings and the node's credentials come in, its log lines go out (the agent writes them).
 *
 * It takes a lock on the spool directory for as long as it runs, so that a worker left behind by
 * an agent that was killed finishes its last batch before the next one opens the spool. It stops
 * when the agent asks, and on its own when the agent is gone (the channel closes).
 */

export const EVENT_WORKER_ARG = '--events-worker';

export interface EventWorkerSettings {
  /** nginx's `logs/access.log`. */
  logFile: string;
  /** The spool's directory. */
  eventsDir: string;
  spoolBytes: number;
  cutMs?: number;
  /**
   * Ship the statistics as minute aggregates (aggregate-feed.ts, spooled in `<eventsDir>/aggregates`,
   * bounded by `spoolBytes` too) and the events for the logs only.
   */
  aggregates?: boolean;
  /**
   * With the aggregates: nginx's admin server, whose refusal tallies (GET /refusals) the collector
   * drains into them (the secret is read from its file, as nginx's master reads it).
   */
  refusals?: { socketPath: string; secretFile: string };
  /** With the aggregates: log time between partial cuts of the open minutes (aggregate-feed.ts; its default unless given; 0: none). */
  partialMs?: number;
  /** The nice value the worker runs at (0–19). */
  nice: number;
  backoffMinMs: number;
  backoffMaxMs: number;
  /** How long a worker waits for the previous one's lock on the spool. */
  lockWaitMs: number;
  /** Where the log ended when the agent started: a first start reads from there (event-collector.ts). */
  firstStart?: LogCursor | null;
}

export type ToWorker =
  | { type: 'start'; settings: EventWorkerSettings; credentials: Credentials | null }
  | { type: 'credentials'; credentials: Credentials }
  | { type: 'stop' };

export type FromWorker =
  | { type: 'log'; level: LogLevel; event: string; fields: Record<string, unknown> }
  | { type: 'prepared'; ok: boolean; nice: number; autogroupNice: number | null }
  /** What was counted since the last `stats` (node-metrics.ts), and the spool as it is now. */
  | { type: 'stats'; counts: NodeCounts; spoolBytes: number; spoolBatches: number };

/** The admin secret as the agent wrote it (state.ts): one line of hex. */
async function readSecret(file: string): Promise<string> {
  return (await readFile(file, 'utf8')).trim();
}

/** How often the worker sends its counts to the agent. */
const STATS_EVERY_MS = 1000;

function send(message: FromWorker): Promise<void> {
  return new Promise((resolve) => {
    if (!process.connected || !process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

/** The first `start` message, or null when the agent went away before sending it. */
function startMessage(): Promise<Extract<ToWorker, { type: 'start' }> | null> {
  return new Promise((resolve) => {
    const onMessage = (message: ToWorker) => {
      if (message.type !== 'start') return;
      process.off('message', onMessage);
      resolve(message);
    };
    process.on('message', onMessage);
    process.once('disconnect', () => resolve(null));
  });
}

/**
 * For tests only: a worker started with this variable set waits, before it does anything, until the
 * file it names exists: a worker as slow to come up as one on a loaded node, released when the test says.
 */
export const EVENTS_HOLD_FILE_ENV = 'RAMPART_EVENTS_TEST_HOLD_FILE';

async function heldForTest(signal: AbortSignal): Promise<void> {
  const file = process.env[EVENTS_HOLD_FILE_ENV];
  if (!file) return;
  while (!signal.aborted && !existsSync(file)) await pause(50, signal);
}

/** Runs the worker until the agent stops it or goes; answers the exit status. */
export async function runEventWorker(): Promise<number> {
  if (!process.send) {
    process.stderr.write(`rampart-edge ${EVENT_WORKER_ARG}: started by the agent only\n`);
    return 2;
  }
  const controller = new AbortController();
  const { signal } = controller;
  const log: Logger = (level, event, fields = {}) => void send({ type: 'log', level, event, fields });
  process.once('disconnect', () => controller.abort(new Error('the agent is gone')));
  const start = await startMessage();
  if (start === null) return 0;
  const { settings } = start;
  await heldForTest(signal);
  let client: NodeClient | null = null;
  const useCredentials = (credentials: Credentials | null) => {
    if (credentials) client = new NodeClient(credentials.controlPlane, credentials);
  };
  useCredentials(start.credentials);
  process.on('message', (message: ToWorker) => {
    if (message.type === 'credentials') useCredentials(message.credentials);
    if (message.type === 'stop') controller.abort(new Error('the agent stops'));
  });

  // First, before any work: the threads that exist now are set, the later ones inherit.
  const priority = await lowerPriority(settings.nice);
  if (priority.errors.length > 0) log('warn', 'events.priority_not_lowered', { errors: priority.errors });

  await mkdir(settings.eventsDir, { recursive: true, mode: 0o700 });
  let lock: Awaited<ReturnType<typeof lockStateDir>>;
  try {
    lock = await lockStateDir(settings.eventsDir, settings.lockWaitMs, (error) =>
      log('error', 'events.lock_lost', { error: error.message }),
    );
  } catch (err) {
    log('error', 'events.spool_locked', { dir: settings.eventsDir, error: errorText(err) });
    await send({ type: 'prepared', ok: false, nice: priority.nice, autogroupNice: priority.autogroupNice });
    return 1;
  }
  try {
    const spool = new EventSpool(settings.eventsDir, settings.spoolBytes);
    const gauge = new CpuGauge();
    let counts = emptyCounts();
    let droppedSent = 0;
    const stats = setInterval(() => {
      const delta = counts;
      counts = emptyCounts();
      delta.spoolDropped = spool.droppedSinceStart - droppedSent;
      droppedSent = spool.droppedSinceStart;
      void send({ type: 'stats', counts: delta, spoolBytes: spool.bytes, spoolBatches: spool.waiting });
    }, STATS_EVERY_MS);
    stats.unref();
    signal.addEventListener('abort', () => clearInterval(stats), { once: true });
    const feed = settings.aggregates
      ? new AggregateFeed({
          dir: path.join(settings.eventsDir, 'aggregates'),
          maxBytes: settings.spoolBytes,
          ...(settings.partialMs !== undefined ? { aggregator: { partialMs: settings.partialMs } } : {}),
        })
      : undefined;
    const collector = new EventCollector({
      logFile: settings.logFile,
      spool,
      log,
      signal,
      onEvent: (event) => countEvent(counts, event),
      busy: () => gauge.othersBusy(),
      firstStart: settings.firstStart ?? null,
      ...(settings.cutMs !== undefined ? { cutMs: settings.cutMs } : {}),
      ...(feed !== undefined ? { aggregates: feed } : {}),
      ...(feed !== undefined && settings.refusals !== undefined
        ? {
            refusals: {
              socketPath: settings.refusals.socketPath,
              secret: await readSecret(settings.refusals.secretFile),
            },
          }
        : {}),
    });
    const shipper = new EventShipper({
      spool,
      client: () => client,
      log,
      signal,
      backoffMinMs: settings.backoffMinMs,
      backoffMaxMs: settings.backoffMaxMs,
    });
    const aggregateShipper =
      feed === undefined
        ? null
        : new EventShipper({
            spool: feed.spool,
            name: 'aggregates',
            ship: (c, bytes, abort) => c.shipAggregates(bytes, abort),
            client: () => client,
            log,
            signal,
            backoffMinMs: settings.backoffMinMs,
            backoffMaxMs: settings.backoffMaxMs,
          });
    const ok = await collector.prepare();
    await send({ type: 'prepared', ok, nice: priority.nice, autogroupNice: priority.autogroupNice });
    await Promise.all([collector.run(), shipper.run(), aggregateShipper?.run()]);
  } finally {
    await lock.release();
  }
  // Waits for the channel to take it, and with it every log line before (the process exits next).
  await send({
    type: 'log',
    level: 'info',
    event: 'events.worker_stopped',
    fields: { reason: errorText(signal.reason) },
  });
  return 0;
}
