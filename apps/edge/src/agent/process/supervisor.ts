import type { EdgeSnapshot } from '@rampart/contract';
import type { NginxProcess } from '../../nginx/nginx-process.js';
import { Backoff, pause } from '../backoff.js';
import { describeError } from '../errors.js';
import type { Logger } from '../log.js';
import { applySummary, type SnapshotApplier } from '../plane/apply.js';
import { alive, killNginxLeftovers } from './processes.js';

export interface SupervisorOptions {
  nginx: NginxProcess;
  applier: SnapshotApplier;
  log: Logger;
  signal: AbortSignal;
  /** How often the supervisor checks that nginx's master runs. */
  intervalMs: number;
  /** How often ports that did not bind are tried again (a failed try backs off up to backoffMaxMs). */
  portRetryMs: number;
  /** How often it checks that nginx holds the applied data plane (version and content hash). */
  verifyMs: number;
  backoffMinMs: number;
  backoffMaxMs: number;
  /** Runs a task under the agent's apply lock. */
  exclusive: <T>(task: () => Promise<T>) => Promise<T>;
  /** The snapshot nginx should serve. */
  applied: () => EdgeSnapshot | null;
  /** nginx was restarted (message '') or failed to restart (the message for lastError). */
  restartOutcome: (error: string) => void;
  reportStatus: () => void;
}

/**
 * The nginx supervisor: every `intervalMs`, under the apply lock, checks that nginx's master runs;
 * when it is gone although the applied snapshot needs it, kills the workers it left on the ports,
 * starts nginx again and re-pushes the data plane (the shared dict died with the master: requests
 * would get 503 until the push). Restarts that fail back off. While nginx runs with ports left out
 * because they did not bind, it tries them every `portRetryMs` and applies the snapshot again once
 * one binds, so a port freed on the host is served without waiting for a new snapshot.
 */
export class NginxSupervisor {
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  private readonly restartBackoff: Backoff;
  private nextRestartAt = 0;
  private readonly portBackoff: Backoff;
  private nextPortRetryAt = 0;
  private nextVerifyAt = 0;

  constructor(private readonly options: SupervisorOptions) {
    this.restartBackoff = new Backoff(options.backoffMinMs, options.backoffMaxMs);
    this.portBackoff = new Backoff(options.portRetryMs, Math.max(options.portRetryMs, options.backoffMaxMs));
  }

  private get stopping(): boolean {
    return this.options.signal.aborted;
  }

  /** Schedules the next round (after each round, until the agent stops). */
  start(): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.round = this.options
        .exclusive(() => this.supervise())
        .catch((err: unknown) => this.options.log('error', 'supervisor.failed', { error: describeError(err) }))
        .finally(() => this.start());
    }, this.options.intervalMs);
  }

  /** Cancels the scheduled round (a running one finishes: see `settled`). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  /** Resolves when the round in progress (if any) has finished. */
  async settled(): Promise<void> {
    await this.round;
  }

  private async supervise(): Promise<void> {
    const { nginx, applier, log } = this.options;
    if (this.stopping) return;
    if (await nginx.isRunning()) {
      await applier.track();
      await this.retryFailedPorts();
      await this.verify();
      return;
    }
    const snapshot = this.options.applied();
    if (snapshot === null || applier.settingsFor(snapshot) === null) return;
    if (Date.now() < this.nextRestartAt) return;
    const leftovers = killNginxLeftovers(applier.trackedPids);
    const deadline = Date.now() + 3000;
    while (leftovers.some(alive) && Date.now() < deadline) await pause(20, this.options.signal);
    log('warn', 'nginx.died', { pids: [...applier.trackedPids], killedLeftovers: leftovers });
    try {
      const result = await applier.apply(snapshot);
      this.restartBackoff.reset();
      this.nextRestartAt = 0;
      this.options.restartOutcome('');
      log('info', 'nginx.restarted', { version: snapshot.version, ...applySummary(result) });
    } catch (err) {
      const retryInMs = this.restartBackoff.next();
      this.nextRestartAt = Date.now() + retryInMs;
      this.options.restartOutcome(`nginx restart failed: ${describeError(err)}`.slice(0, 2000));
      log('error', 'nginx.restart_failed', { error: describeError(err), retryInMs });
    }
    this.options.reportStatus();
  }

  /** Applies the snapshot again when a port left out binds now (see the class comment). */
  private async retryFailedPorts(): Promise<void> {
    const { applier, log } = this.options;
    const snapshot = this.options.applied();
    if (snapshot === null || applier.failedPorts.length === 0) {
      this.portBackoff.reset();
      this.nextPortRetryAt = 0;
      return;
    }
    if (this.nextPortRetryAt === 0) this.nextPortRetryAt = Date.now() + this.portBackoff.next();
    if (Date.now() < this.nextPortRetryAt) return;
    this.nextPortRetryAt = Date.now() + this.portBackoff.next();
    if (!(await applier.failedPortFreed(snapshot))) return;
    const before = applier.failedPorts.length;
    try {
      const result = await applier.apply(snapshot);
      log('info', 'ports.retried', { failed: applier.failedPorts.length, before, ...applySummary(result) });
    } catch (err) {
      log('error', 'ports.retry_failed', { error: describeError(err) });
    }
    this.options.reportStatus();
  }

  /**
   * Every `verifyMs`: asks the admin endpoint which data plane nginx holds and pushes the applied
   * one again when the version or the content hash differ (see SnapshotApplier.verify).
   */
  private async verify(): Promise<void> {
    const snapshot = this.options.applied();
    if (snapshot === null || Date.now() < this.nextVerifyAt) return;
    this.nextVerifyAt = Date.now() + this.options.verifyMs;
    try {
      const repaired = await this.options.applier.verify(snapshot);
      if (repaired === null) return;
      this.options.log('error', 'dataplane.mismatch', {
        expected: snapshot.dataPlane.version,
        found: repaired.found?.version ?? null,
        foundHash: repaired.found?.hash ?? null,
        pushedGeneration: repaired.push?.generation ?? null,
      });
    } catch (err) {
      this.options.log('warn', 'dataplane.verify_failed', { version: snapshot.version, error: describeError(err) });
    }
  }
}
