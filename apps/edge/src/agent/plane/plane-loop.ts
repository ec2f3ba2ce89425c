import type { PlaneAnswer } from '@rampart/contract';
import type { AdminEndpoint } from '../../data-plane/admin-client.js';
import { describeAnswer, type LuaOp, LuaPlane, luaMeta, PlaneRefusedError } from '../../data-plane/lua-plane.js';
import type { OriginResolverOptions } from '../../data-plane/origin-resolver.js';
import { activeDataPlane, DataPlanePushError, type PushResult, patchDataPlane } from '../../data-plane/push.js';
import type { NginxProcess } from '../../nginx/nginx-process.js';
import { Backoff, pause } from '../backoff.js';
import { describeError } from '../errors.js';
import type { Logger } from '../log.js';
import { NodeApiError, type NodeClient } from '../node-api/node-client.js';
import type { GeoDatabaseFiles } from './geo-database.js';
import type { PlaneLog } from './plane-log.js';
import { mergeOps, PlaneOrigins } from './plane-origins.js';
import type { AbuseIPFiles } from './reputation-list.js';

/** How the node resolves its origins' host names (the agent's options carry it). */
export interface PlaneOriginOptions {
  /** DNS servers, the address rule and the TTL bounds of origin host names (origin-resolver.ts). */
  origins?: OriginResolverOptions | undefined;
}

export interface PlaneLoopOptions extends PlaneOriginOptions {
  admin: AdminEndpoint;
  nginx: Pick<NginxProcess, 'isRunning'>;
  log: Logger;
  signal: AbortSignal;
  /** Runs a task under the agent's apply lock. */
  exclusive: <T>(task: () => Promise<T>) => Promise<T>;
  pollWaitSeconds: number;
  backoffMinMs: number;
  backoffMaxMs: number;
  planeLog: PlaneLog;
  geo?: GeoDatabaseFiles | undefined;
  reputation?: AbuseIPFiles | undefined;
  reportStatus: () => void;
  /** The control plane has no plane route (an older one): the snapshot's data plane serves again. */
  unavailable: () => void;
}

/** The store version nginx's workers read for a plane: rampart.validate's version token. */
const storeVersion = (to: string) => `plane-${to}`;

/**
 * The data-plane side of the agent (docs/data-plane-deltas.md "Edge"): long-polls the control
 * plane for the node's plane as entries, checks each answer (a delta must follow the sequence the
 * node holds, its entries must be the contract's and hash to their hashes, and the plane must hash
 * to what the answer says), writes it to disk (plane-log.ts), then pushes only the records that
 * changed into nginx's store (PATCH /config), where requests see the whole change or none of it.
 * A delta that fails a check is refused and the next poll asks for a whole plane.
 *
 * nginx's store is known to hold the plane at `pushed`; whenever that is unknown (nginx started
 * or restarted, a push failed, the store answers another sum) the next push replaces every record
 * (`reset`). `ensure` is what the apply step and the supervisor call, under the apply lock.
 */
export class PlaneLoop {
  /** The plane the node holds (on disk; null before the first). */
  private plane: LuaPlane | null = null;
  /** What nginx's store holds: the plane's sequence, at which store version, with which sum. */
  private pushed: { to: string; generation: number; sum: string } | null = null;
  /** Set after a refused answer: the next poll asks for a whole plane. */
  private wantFull = false;
  /**
   * Set when the plane came from disk: its meta is what the agent that stored it understood (an
   * older agent drops keys it does not know, under the control plane's hash of the whole meta), so
   * the polls leave the meta's hash out until an answer brings the meta again.
   */
  private metaFromDisk = false;
  /** Why the latest answer was not taken or pushed ('' when it was). */
  private planeError = '';
  /** The origins' host names, resolved (plane-origins.ts). */
  private readonly origins: PlaneOrigins;
  /**
   * Whether nginx's store is filled from the plane: once a plane is on disk or the control plane
   * answered the route; false until then and after the control plane answered that it has no
   * plane route (an older one), when the snapshot's data plane serves.
   */
  available = false;
  /** The control plane answered that it has no plane route: the poll stops. */
  private routeMissing = false;

  constructor(private readonly options: PlaneLoopOptions) {
    this.origins = new PlaneOrigins(options.origins, options.log, () => options.reportStatus());
  }

  /** What the status report says of the plane: why it is not served, and the origins refused. */
  get error(): string {
    return [this.planeError, this.origins.problems].filter((e) => e !== '').join('; ');
  }

  private get stopping(): boolean {
    return this.options.signal.aborted;
  }

  /** The meta of the plane the node holds (its challenge keys, cache epoch, …), null before one. */
  get meta() {
    return this.plane?.meta ?? null;
  }

  /** The sequence the node holds ('' before a plane). */
  get sequence(): string {
    return this.plane?.to ?? '';
  }

  /** The plane kept on disk, loaded at start before any contact with the control plane. */
  async restore(): Promise<void> {
    const { log, planeLog } = this.options;
    try {
      this.plane = await planeLog.load((problem) => {
        this.planeError = problem;
        log('error', 'plane.stored_refused', { error: problem });
      });
    } catch (err) {
      log('error', 'plane.stored_refused', { error: describeError(err) });
      this.plane = null;
    }
    if (this.plane) {
      this.metaFromDisk = true;
      this.available = true;
      await this.origins.resolve(this.plane, true);
      log('info', 'plane.restored', { to: this.plane.to, domains: this.plane.domainCount });
    }
  }

  /** Forgets the plane (a reset): the next poll asks for a whole one. */
  async forget(): Promise<void> {
    this.plane = null;
    this.pushed = null;
    await this.options.planeLog.drop();
  }

  /**
   * The first poll, not held, before the snapshot's: a plane it brings is in place when the first
   * snapshot starts nginx (the apply pushes it), and a control plane without the route is known.
   */
  async probe(client: NodeClient): Promise<void> {
    try {
      const answer = await this.fetch(client, 0);
      this.available = true;
      if (answer !== null) await this.take(answer);
    } catch (err) {
      if (this.noRoute(err)) return;
      this.options.log('warn', 'plane.poll_failed', { error: describeError(err) });
    }
  }

  private noRoute(err: unknown): boolean {
    if (!(err instanceof NodeApiError) || err.status !== 404) return false;
    const was = this.available;
    this.available = false;
    this.routeMissing = true;
    this.options.log('warn', 'plane.unavailable', { error: err.message });
    if (was) this.options.unavailable();
    return true;
  }

  /**
   * Takes the plane as a stream (one request, a line per change), or by long polls from a control
   * plane without the stream route, and takes each answer, until stopped (or the control plane
   * has no plane route at all). An answer refused, a push that failed or a stream that broke
   * opens the next stream after a backoff, from what the node holds.
   */
  async poll(client: NodeClient): Promise<void> {
    const { backoffMinMs, backoffMaxMs } = this.options;
    const backoff = new Backoff(backoffMinMs, backoffMaxMs);
    const watching = this.watchOrigins();
    try {
      await this.pollPlanes(client, backoff);
    } finally {
      await watching;
    }
  }

  private async pollPlanes(client: NodeClient, backoff: Backoff): Promise<void> {
    const { log, signal, pollWaitSeconds } = this.options;
    let streams = true;
    while (!this.stopping && !this.routeMissing) {
      const started = Date.now();
      try {
        if (streams) {
          await client.planeStream(
            this.known(),
            async (answer) => {
              this.available = true;
              await this.take(answer);
              backoff.reset();
            },
            signal,
          );
          // Ended by the control plane (after its time, or as it stops): the next from what the node holds,
          // not at once after a stream that ended as it began.
          this.available = true;
          const elapsed = Date.now() - started;
          if (elapsed < 1000) await pause(1000 - elapsed, signal);
          continue;
        }
        const answer = await this.fetch(client, pollWaitSeconds);
        this.available = true;
        backoff.reset();
        if (answer === null) {
          const elapsed = Date.now() - started;
          if (elapsed < 1000) await pause(1000 - elapsed, signal);
          continue;
        }
        await this.take(answer);
      } catch (err) {
        if (this.stopping) return;
        if (streams && err instanceof NodeApiError && err.status === 404) {
          // A control plane from before streams: its long poll (whose 404 says it has no plane route at all).
          streams = false;
          log('info', 'plane.stream_unavailable', { error: err.message });
          continue;
        }
        if (this.noRoute(err)) return;
        const retryInMs = backoff.next();
        if (!(err instanceof PlaneRefusedError))
          log('warn', 'plane.poll_failed', { error: describeError(err), retryInMs });
        await pause(retryInMs, signal);
      }
    }
  }

  /**
   * Re-resolves the origins' host names as their answers expire (their TTL, within the resolver's
   * bounds) and pushes the domains whose addresses changed, until the agent stops.
   */
  private async watchOrigins(): Promise<void> {
    const { signal, log } = this.options;
    while (!this.stopping) {
      await pause(this.origins.checkEveryMs, signal);
      const plane = this.plane;
      if (this.stopping || plane === null || !this.origins.due(plane)) continue;
      try {
        await this.options.exclusive(async () => {
          if (this.plane !== plane || this.stopping) return;
          const ops = await this.origins.resolve(plane, false);
          if (ops.length === 0) return;
          const result = await this.push(ops);
          log('info', 'plane.origins_resolved', { records: ops.length, generation: result?.generation ?? null });
        });
      } catch (err) {
        if (!this.stopping) log('warn', 'plane.origins_failed', { error: describeError(err) });
      }
    }
  }

  /**
   * What the node holds, as the control plane is told it (null: nothing, or a whole plane wanted;
   * meta '': the meta's hash left out, so the answer brings the meta).
   */
  private known(): { since: string; plane: string; meta: string } | null {
    const plane = this.wantFull ? null : this.plane;
    return plane ? { since: plane.to, plane: plane.planeHash, meta: this.metaFromDisk ? '' : plane.metaHash } : null;
  }

  /** One poll: what the control plane answers for the plane the node holds. */
  fetch(client: NodeClient, waitSeconds: number): Promise<PlaneAnswer | null> {
    return client.plane(this.known(), waitSeconds, this.options.signal);
  }

  /**
   * Takes one answer: checks it, writes it to disk, pushes what changed. Throws PlaneRefusedError
   * (the next poll asks for a whole plane) or the push's error (nginx keeps what it had; the
   * answer is on disk and the next push replaces every record).
   */
  async take(answer: PlaneAnswer): Promise<void> {
    const { log, planeLog } = this.options;
    const started = performance.now();
    await this.options.exclusive(async () => {
      if (this.stopping) throw new Error('agent stopping');
      const before = this.plane;
      let ops: LuaOp[] | null;
      try {
        if (answer.type === 'full') {
          const next = LuaPlane.full(answer);
          await this.origins.resolve(next, true);
          await planeLog.writeBase(next);
          this.plane = next;
          ops = before !== null && this.pushed?.to === before.to ? next.opsFrom(before) : null;
        } else {
          if (before === null) throw new PlaneRefusedError('a delta with no plane to apply it to');
          const pushedBefore = this.pushed?.to === before.to;
          ops = mergeOps(before.applyDelta(answer), await this.origins.resolve(before, false));
          try {
            await planeLog.append(answer, before);
          } catch (err) {
            // Not on disk: not taken. The plane on disk is the one to go on from.
            this.plane = await planeLog.load(() => {});
            this.pushed = null;
            throw err;
          }
          if (!pushedBefore) ops = null;
        }
      } catch (err) {
        if (err instanceof PlaneRefusedError) {
          this.wantFull = true;
          this.planeError = `data plane ${describeAnswer(answer)} refused: ${err.message}`.slice(0, 2000);
          log('warn', 'plane.refused', { error: err.message, held: before?.to ?? null });
          this.options.reportStatus();
        }
        throw err;
      }
      this.wantFull = false;
      this.metaFromDisk = false;
      const result = await this.push(ops);
      log('info', 'plane.applied', {
        answer: describeAnswer(answer),
        ms: Math.round(performance.now() - started),
        records: ops?.length ?? 'all',
        generation: result?.generation ?? null,
      });
    });
  }

  /**
   * Pushes the plane into nginx's store: `ops` on top of what it holds at `pushed`, or every
   * record (null, or when the store moved on). Does nothing while nginx is down (`ensure` pushes
   * it once nginx runs). Call under the apply lock.
   */
  private async push(ops: LuaOp[] | null): Promise<PushResult | null> {
    const plane = this.plane;
    if (plane === null) return null;
    if (!(await this.options.nginx.isRunning())) {
      this.pushed = null;
      return null;
    }
    // The geo database and the reputation list the meta names are on disk before Lua is told.
    await this.options.geo?.ensure(plane.meta.geoDatabase);
    await this.options.reputation?.ensure(plane.meta.abuseIPs);
    const send = (changes: LuaOp[] | null) =>
      patchDataPlane(
        this.options.admin,
        {
          version: storeVersion(plane.to),
          from: changes === null ? null : (this.pushed?.generation ?? null),
          reset: changes === null,
          meta: luaMeta(plane.meta),
          ops: changes ?? plane.allOps(),
        },
        plane.sum,
      );
    let result: PushResult;
    try {
      try {
        result = await send(ops !== null && this.pushed !== null ? ops : null);
      } catch (err) {
        // The store is not where the agent thought (409: another version; a wrong sum): replace it all.
        if (ops === null || !(err instanceof DataPlanePushError) || (err.status !== 409 && err.status !== 200))
          throw err;
        result = await send(null);
      }
    } catch (err) {
      this.pushed = null;
      this.planeError = `data plane ${plane.to} not pushed: ${describeError(err)}`.slice(0, 2000);
      this.options.reportStatus();
      throw err;
    }
    this.pushed = { to: plane.to, generation: result.generation, sum: plane.sum };
    if (this.planeError !== '') {
      this.planeError = '';
      this.options.reportStatus();
    }
    return result;
  }

  /**
   * Makes sure nginx's store holds the plane (after nginx started, and every verify interval): asks
   * the store which version and sum it holds and pushes every record when either differs. Answers
   * what it found when it had to push, null when all was well. Call under the apply lock.
   */
  /** The plane sequence nginx's store is known to hold (null: unknown or none). */
  get heldInStore(): string | null {
    return this.pushed?.to ?? null;
  }

  /** The plane's size on disk (PlaneLog.diskBytes): nginx's data-plane dict is sized from it at start. */
  bytes(): Promise<number> {
    return this.options.planeLog.diskBytes();
  }

  async ensure(): Promise<{ found: PushResult | null; push: PushResult | null } | null> {
    const plane = this.plane;
    if (plane === null || !(await this.options.nginx.isRunning())) return null;
    await this.options.geo?.ensureMissing(plane.meta.geoDatabase);
    await this.options.reputation?.ensureMissing(plane.meta.abuseIPs);
    const found = await activeDataPlane(this.options.admin);
    if (found !== null && found.version === storeVersion(plane.to) && found.sum === plane.sum) {
      this.pushed = { to: plane.to, generation: found.generation, sum: plane.sum };
      return null;
    }
    this.pushed = null;
    return { found, push: await this.push(null) };
  }
}
