import type { EdgeSnapshot } from '@rampart/contract';
import { DataPlanePushError } from '../../data-plane/push.js';
import { formatPath } from '../../data-plane/schema.js';
import { NginxConfigError, type NginxProcess } from '../../nginx/nginx-process.js';
import { nginxSettingsSchema } from '../../nginx/render.js';
import { Backoff, pause } from '../backoff.js';
import { describeError } from '../errors.js';
import type { Logger } from '../log.js';
import { NodeApiError, type NodeClient, SnapshotRefusedError } from '../node-api/node-client.js';
import type { StateDir } from '../process/state.js';
import { type ApplyResult, applySummary, type SnapshotApplier } from './apply.js';

export interface SnapshotLoopOptions {
  applier: SnapshotApplier;
  nginx: Pick<NginxProcess, 'isRunning'>;
  /** Where good snapshots are kept (read at start, written once one applied). */
  state: Pick<StateDir, 'loadGood' | 'saveGood'>;
  log: Logger;
  signal: AbortSignal;
  /** Runs a task under the agent's apply lock. */
  exclusive: <T>(task: () => Promise<T>) => Promise<T>;
  /** How long a snapshot poll may be held by the control plane (seconds). */
  pollWaitSeconds: number;
  backoffMinMs: number;
  backoffMaxMs: number;
  /** A snapshot now serves (from disk or the control plane). */
  served: (snapshot: EdgeSnapshot) => void;
  reportStatus: () => void;
}

/**
 * The snapshot side of the agent: serves the last good snapshot from disk at start, long-polls the
 * control plane for newer ones, checks each one's listen settings for this node, applies it with
 * the apply step (apply.ts) under the apply lock and rolls back to the previous one when an apply
 * that changed nginx failed. Holds what nginx serves (`applied`) and the errors reported with each
 * status. A snapshot becomes good (written to disk) only once it applied.
 */
export class SnapshotLoop {
  private current: EdgeSnapshot | null = null;
  /** Version sent as `?version=`: the applied one, or a refused one so the control plane waits for a newer. */
  private lastSeen: string | null = null;
  /** Why the latest snapshot did not apply ('' when it did). */
  snapshotError = '';
  /** What is wrong with nginx ('' when it serves the applied snapshot). */
  nginxError = '';
  private controlPlaneReachable = true;

  constructor(private readonly options: SnapshotLoopOptions) {}

  /** The snapshot nginx serves now. */
  get applied(): EdgeSnapshot | null {
    return this.current;
  }

  /** Both errors, as one status line ('' when all is well). */
  get lastError(): string {
    return [this.snapshotError, this.nginxError]
      .filter((e) => e !== '')
      .join('; ')
      .slice(0, 2000);
  }

  private get stopping(): boolean {
    return this.options.signal.aborted;
  }

  /** Forgets the applied snapshot (after a reset dropped every stored one): the next poll takes any. */
  forget(): void {
    this.current = null;
    this.lastSeen = null;
  }

  /**
   * Serves the last good snapshot on disk (before any contact with the control plane). A stored
   * snapshot that fails to apply is still the best known state: the supervisor retries it and the
   * poll may bring a newer one.
   */
  async restore(): Promise<void> {
    const { state, log } = this.options;
    const refusedStored: string[] = [];
    const stored = await state.loadGood((version, err) => {
      refusedStored.push(err.message);
      log('error', 'snapshot.stored_refused', { version, error: err.message });
    });
    // Reported until a snapshot from the control plane applies.
    if (refusedStored.length > 0)
      this.snapshotError = `stored snapshot refused: ${refusedStored.join('; ')}`.slice(0, 2000);
    if (!stored) return;
    log('info', 'snapshot.restored', { version: stored.version });
    try {
      const result = await this.options.exclusive(() => this.options.applier.apply(stored));
      this.current = stored;
      this.lastSeen = stored.version;
      this.options.served(stored);
      log('info', 'snapshot.applied', { version: stored.version, source: 'disk', ...applySummary(result) });
    } catch (err) {
      this.nginxError = `stored snapshot ${stored.version}: ${describeError(err)}`;
      this.current = stored;
      this.lastSeen = stored.version;
      log('error', 'snapshot.apply_failed', { version: stored.version, source: 'disk', error: this.nginxError });
    }
  }

  /** Long-polls the control plane for the node's snapshot and takes each new one, until stopped. */
  async poll(client: NodeClient): Promise<void> {
    const { log, signal, pollWaitSeconds, backoffMinMs, backoffMaxMs } = this.options;
    const backoff = new Backoff(backoffMinMs, backoffMaxMs);
    // Separate: a snapshot that keeps failing to apply backs off although every poll succeeds.
    const applyBackoff = new Backoff(backoffMinMs, backoffMaxMs);
    while (!this.stopping) {
      const started = Date.now();
      try {
        const snapshot = await client.snapshot(this.lastSeen, pollWaitSeconds, signal);
        if (!this.controlPlaneReachable) log('info', 'control_plane.reachable', {});
        this.controlPlaneReachable = true;
        backoff.reset();
        if (snapshot === null) {
          // A control plane that answers "unchanged" at once must not make this loop spin.
          const elapsed = Date.now() - started;
          if (elapsed < 1000) await pause(1000 - elapsed, signal);
          continue;
        }
        try {
          await this.take(snapshot);
          applyBackoff.reset();
        } catch {
          // Logged and reported by take; the next poll gets the same snapshot again.
          const retryInMs = applyBackoff.next();
          log('info', 'snapshot.retry', { version: snapshot.version, retryInMs });
          await pause(retryInMs, signal);
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
          log('warn', 'control_plane.unreachable', { error: err.message });
        }
        const retryInMs = backoff.next();
        log('warn', 'poll.failed', { error: describeError(err), retryInMs });
        await pause(retryInMs, signal);
      }
    }
  }

  private refuse(version: string | null, reason: string): void {
    this.snapshotError = `snapshot ${version ?? '(no version)'} refused: ${reason}`.slice(0, 2000);
    if (version !== null) this.lastSeen = version;
    this.options.log('warn', 'snapshot.refused', {
      version,
      error: reason,
      appliedVersion: this.current?.version ?? '',
    });
    this.options.reportStatus();
  }

  /**
   * A snapshot from the control plane (already checked against the contract's schema). Checks that
   * its listen settings render for this node, applies it, then records it as good. A failure to
   * apply throws: the poll retries after a backoff (the previous snapshot stays active).
   */
  async take(snapshot: EdgeSnapshot): Promise<void> {
    const { applier, log } = this.options;
    if (snapshot.version === this.current?.version) {
      this.lastSeen = snapshot.version;
      if (this.snapshotError !== '') {
        this.snapshotError = '';
        this.options.reportStatus();
      }
      return;
    }
    log('info', 'snapshot.received', {
      version: snapshot.version,
      initialized: snapshot.initialized,
      domains: snapshot.dataPlane.domains.length,
      certificates: snapshot.dataPlane.certificates.length,
    });
    const settings = applier.settingsFor(snapshot);
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
      const result = await this.options.exclusive(async () => {
        if (this.stopping) throw new Error('agent stopping');
        const previous = this.current;
        let applied: ApplyResult;
        applier.nginxChanged = false;
        try {
          applied = await applier.apply(snapshot);
        } catch (err) {
          // A config nginx refused never went live; one that did (or a dead nginx) needs the old one back.
          const rollBack = applier.nginxChanged || !(await this.options.nginx.isRunning());
          if (previous !== null && rollBack && !this.stopping) await this.rollBack(previous);
          throw err;
        }
        this.current = snapshot;
        return applied;
      });
      this.lastSeen = snapshot.version;
      this.snapshotError = '';
      this.nginxError = '';
      this.options.served(snapshot);
      log('info', 'snapshot.applied', {
        version: snapshot.version,
        source: 'control_plane',
        ms: Math.round(performance.now() - started),
        ...applySummary(result),
      });
      try {
        await this.options.state.saveGood(snapshot);
      } catch (err) {
        this.snapshotError = `snapshot ${snapshot.version} applied but not saved: ${describeError(err)}`;
        log('error', 'snapshot.save_failed', { version: snapshot.version, error: describeError(err) });
      }
      this.options.reportStatus();
    } catch (err) {
      this.snapshotError = `snapshot ${snapshot.version} not applied: ${describeError(err)}`.slice(0, 2000);
      log('error', 'snapshot.apply_failed', {
        version: snapshot.version,
        error: describeError(err),
        appliedVersion: this.current?.version ?? '',
        ...(err instanceof NginxConfigError ? { emerg: err.emerg } : {}),
        ...(err instanceof DataPlanePushError ? { status: err.status, field: err.field } : {}),
      });
      this.options.reportStatus();
      throw err;
    }
  }

  /** After a failed apply: puts the previous good snapshot's config and data plane back. */
  private async rollBack(previous: EdgeSnapshot): Promise<void> {
    try {
      const result = await this.options.applier.apply(previous);
      if (result.nginx !== 'none' || result.push !== null) {
        this.options.log('info', 'snapshot.rolled_back', { version: previous.version, ...applySummary(result) });
      }
    } catch (err) {
      this.nginxError = `rollback to ${previous.version} failed: ${describeError(err)}`;
      this.options.log('error', 'snapshot.rollback_failed', { version: previous.version, error: describeError(err) });
    }
  }
}
