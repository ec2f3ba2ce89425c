import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Backoff, pause } from '../backoff.js';
import { errorText, type Logger } from '../log.js';
import type { Credentials } from '../process/state.js';
import { type LogCursor, logEnd } from './access-log-reader.js';
import { EVENT_WORKER_ARG, type EventWorkerSettings, type FromWorker, type ToWorker } from './event-worker.js';

/**
 * The agent's side of the request events' process (event-worker.ts): starts it, hands it the
 * node's credentials once they exist, writes its log lines, and starts it again with the usual
 * backoff when it dies — the reader's cursor and the batches are on disk, so a worker killed at
 * any point loses and repeats nothing (the spool's own guarantees, event-spool.ts). It stops with
 * the agent: asked first, killed if it does not exit within `stopWaitMs`.
 */

/** How the worker is started: the agent's bundle (default) or, in tests, the sources through a loader. */
export interface EventWorkerCommand {
  script: string;
  execArgv?: string[];
  /** Variables added to the agent's environment for the worker (tests: EVENTS_HOLD_FILE_ENV). */
  env?: Record<string, string>;
}

/** The bundle this code runs in: esbuild keeps `import.meta.url` as the bundle's own URL. */
export const bundledEventWorker = (): EventWorkerCommand => ({ script: fileURLToPath(import.meta.url) });

/** The worker's nice value unless the agent is told otherwise: the lowest priority there is. */
export const EVENTS_NICE_DEFAULT = 19;

export interface EventProcessOptions {
  command: EventWorkerCommand;
  settings: EventWorkerSettings;
  log: Logger;
  /** Aborting it stops the worker (see `stopped`). */
  signal: AbortSignal;
  backoffMinMs: number;
  backoffMaxMs: number;
  /** How long `start` waits for the first worker to position its reader. */
  readyWaitMs?: number;
  /** How long a worker asked to stop may take before it is killed. */
  stopWaitMs?: number;
  /** The worker's counts since its last message and its spool now (the node's metrics). */
  onStats?: (stats: Extract<FromWorker, { type: 'stats' }>) => void;
}

export class EventProcess {
  private child: ChildProcess | null = null;
  private credentials: Credentials | null = null;
  private supervising: Promise<void> = Promise.resolve();
  /** Where the log ended when `start` ran (null until then, or when it could not be looked at). */
  private firstStart: LogCursor | null = null;

  constructor(private readonly options: EventProcessOptions) {}

  /** The running worker's process id (null between a death and its restart). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** The node's credentials for shipping: passed to the running worker and to every later one. */
  setCredentials(credentials: Credentials): void {
    this.credentials = credentials;
    this.tell({ type: 'credentials', credentials });
  }

  /**
   * Starts the worker and keeps it running until the signal aborts. Run before nginx serves: the
   * log's end now is where a first start reads from (only the lines an older nginx left are
   * skipped), whenever the worker gets to it. Resolves once the first worker has positioned its
   * reader, or has failed to, or after `readyWaitMs`: a worker slower than that (a loaded node) is
   * said and left to come up, nothing written meanwhile is lost.
   */
  async start(): Promise<void> {
    this.firstStart = await logEnd(this.options.settings.logFile);
    let ready: () => void = () => {};
    let isReady = false;
    const prepared = new Promise<void>((resolve) => {
      ready = () => {
        isReady = true;
        resolve();
      };
    });
    this.supervising = this.supervise(ready);
    const waited = new AbortController();
    const readyWaitMs = this.options.readyWaitMs ?? 15_000;
    await Promise.race([prepared, pause(readyWaitMs, waited.signal)]);
    waited.abort();
    if (!isReady && !this.options.signal.aborted) {
      this.options.log('warn', 'events.worker_slow', { pid: this.pid, waitedMs: readyWaitMs, from: this.firstStart });
    }
  }

  /** Resolves once the worker has exited after the signal aborted. */
  async stopped(): Promise<void> {
    await this.supervising;
  }

  private tell(message: ToWorker): void {
    const child = this.child;
    // Ignored when the channel has just closed: the worker is exiting, `exit` follows.
    if (child?.connected) child.send(message, () => undefined);
  }

  private async supervise(ready: () => void): Promise<void> {
    const { signal, log } = this.options;
    const backoff = new Backoff(this.options.backoffMinMs, this.options.backoffMaxMs);
    while (!signal.aborted) {
      const startedAt = Date.now();
      const exit = await this.runOnce(ready);
      // A worker that died before it was ready holds up nobody.
      ready();
      if (signal.aborted) break;
      // One that ran a while died of something new: start again soon.
      if (Date.now() - startedAt > 2 * this.options.backoffMaxMs) backoff.reset();
      const retryInMs = backoff.next();
      log('error', 'events.worker_exited', { ...exit, retryInMs });
      await pause(retryInMs, signal);
    }
  }

  /** Runs one worker; resolves when it has exited. */
  private runOnce(ready: () => void): Promise<{ pid: number | null; code: number | null; signal: string | null }> {
    const { command, log, signal, settings } = this.options;
    return new Promise((resolve) => {
      let child: ChildProcess;
      try {
        // A session of its own (detached): the worker lowers its session's autogroup (process-priority.ts).
        child = fork(command.script, [EVENT_WORKER_ARG], {
          execArgv: command.execArgv ?? [],
          ...(command.env ? { env: { ...process.env, ...command.env } } : {}),
          detached: true,
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
      } catch (err) {
        resolve({ pid: null, code: null, signal: `spawn failed: ${errorText(err)}` });
        return;
      }
      this.child = child;
      const pid = child.pid ?? null;
      let killTimer: NodeJS.Timeout | null = null;
      const onAbort = () => {
        this.tell({ type: 'stop' });
        killTimer = setTimeout(() => child.kill('SIGKILL'), this.options.stopWaitMs ?? 10_000);
      };
      let done = false;
      const finish = (code: number | null, exitSignal: string | null) => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', onAbort);
        if (killTimer) clearTimeout(killTimer);
        if (this.child === child) this.child = null;
        resolve({ pid, code, signal: exitSignal });
      };
      child.on('message', (message: FromWorker) => {
        if (message.type === 'log') log(message.level, message.event, message.fields);
        if (message.type === 'stats') this.options.onStats?.(message);
        if (message.type === 'prepared') {
          const { ok, nice, autogroupNice } = message;
          log('info', 'events.worker_started', { pid, prepared: ok, nice, autogroupNice });
          ready();
        }
      });
      child.once('error', (err) => {
        // Not started, or could not be signalled: `exit` follows only if it ran.
        if (child.pid === undefined || child.exitCode !== null) finish(null, `error: ${errorText(err)}`);
      });
      child.once('exit', (code, exitSignal) => finish(code, exitSignal));
      this.tell({
        type: 'start',
        settings: { ...settings, firstStart: this.firstStart },
        credentials: this.credentials,
      });
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
