import {
  type EdgeFirewall,
  type PlaneAnswer,
  type PlaneChange,
  type PlaneMeta,
  planeAnswerSchema,
} from '@rampart/contract';
import { entryHash } from '@rampart/contract/plane-hash';
import type { ConfigChanges } from '../../platform/changes.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors/app-error.js';
import { PlaneEntryBuilder } from './plane-entries.js';
import { PlaneReadsRepository } from './plane-reads.repository.js';
import { kept, type PlaneKnown, type PlaneView, StaleView, type Tick } from './plane-state.js';
import { PlaneSums, planeChanges } from './plane-sums.js';
import { parsed } from './site-entries.js';
import type { NodeWithZone } from './snapshot.repository.js';
import type { SnapshotBuilder } from './snapshot-builder.js';
import { memoized, nodeForceSSLCode, nodeOwnValues, type PlaneMemo } from './snapshot-plane.js';

/** A held poll looks again this often (a build another process runs, a change nobody announced). */
export const RECHECK_MS = 5000;
/** And this often while a build is under way elsewhere or dirty sites are left. */
const BUSY_RECHECK_MS = 250;
/**
 * The looks of one configuration generation share one build and one read of each plane's state for
 * this long (BUSY_RECHECK_MS while a build is under way elsewhere): a change wakes every node, and
 * their looks cost nothing but the answer. A write of this process or an announced one of another
 * starts a new generation at once; this bounds what comes unannounced (another process's build).
 */
const TICK_MS = 1000;

/** The plane a node polls: its owner's and groups' (none while it does not serve). */
function planeKeyOf(node: NodeWithZone, groupIds: readonly number[]): string {
  const serving = node.status === 'initialized' && node.zoneId !== null && node.enabled;
  return PlaneEntryBuilder.planeKey(node.ownerId, serving ? groupIds : []);
}

/** The meta's values that are the node's own (its zone's limits, cache epoch and redirect code). */
type NodeMetaValues = ReturnType<typeof nodeOwnValues> & { forceSSLCode: ReturnType<typeof nodeForceSSLCode> };

/** A node's poll of its data plane as entries: deltas since what it holds, or the full plane. */
export class PlaneService {
  /** Delta changes by plane, `since` and the plane's last change: read once for all nodes of the plane. */
  private readonly deltas = new Map<string, Promise<PlaneChange[]>>();
  private readonly closing = new AbortController();
  /**
   * The plane's firewalls by their digest (the sum of their entries' hashes): read again only when
   * one of them changed, not on every change of the plane (at 100 sites with their blacklists, a
   * read of every firewall per change was the largest read of a change).
   */
  private readonly planeFirewalls = new Map<string, Promise<EdgeFirewall[]>>();
  /**
   * The owner's settings of the meta with the plane's firewalls, once per configuration generation
   * and recheck interval: read once for every node of the plane.
   */
  private readonly metaSettings = new Map<string, Promise<Awaited<ReturnType<SnapshotBuilder['ownerSettings']>>>>();
  /** Plane ids by key (a plane is never removed). */
  private readonly planeIds = new Map<string, number>();
  /** The plane hash answered at (plane, sequence), once known: it never changes (dp_plane_versions). */
  private readonly versions = new Map<string, string>();
  private tick: Tick | null = null;
  /** A node's own values of the meta and their key, per node row read (the rows are kept while the nodes do not change). */
  private readonly ownValues = new WeakMap<object, { own: NodeMetaValues; key: string }>();
  /** The JSON text of each answer object (see `text`). */
  private readonly texts = new WeakMap<PlaneAnswer, string>();
  /**
   * The `since` each node last polled with (what it holds; on a stream, what the line before brought):
   * fresher than its status report.
   */
  private readonly heldSince = new Map<number, string>();

  /** The dp_* tables. */
  private readonly plane: PlaneReadsRepository;
  /** Per plane, its entries' hashes and their sums. */
  private readonly sums: PlaneSums;

  constructor(
    db: Db,
    private readonly entries: PlaneEntryBuilder,
    private readonly builder: SnapshotBuilder,
    private readonly changes: ConfigChanges,
    private readonly clock: Clock,
  ) {
    this.plane = new PlaneReadsRepository(db);
    this.sums = new PlaneSums(this.plane);
  }

  /**
   * Answers the changes since `since` (a delta), or the whole plane (full) when the node holds
   * none, is behind the kept log, on another plane, or reports another plane hash than the one it
   * was answered at `since`; waits up to `waitSeconds` for a change and answers null when none came.
   */
  async poll(nodeId: number, query: PlaneKnown, waitSeconds: number, hangUp: AbortSignal): Promise<string | null> {
    const signal = AbortSignal.any([hangUp, this.closing.signal]);
    return (await this.look(nodeId, query, waitSeconds, signal))?.text ?? null;
  }

  /**
   * A node's plane stream (edge.planeStream): writes, as a line each, every answer `poll` would give,
   * each from what the line before brought (the first from `query`), and an empty line after
   * `keepaliveSeconds` without one; ends after `seconds`, when the node hangs up or the service
   * closes. A change costs each streaming node one look and one write: no request to read, sign
   * and route as a poll's answer costs (issue 25's CPU per change with 100 nodes).
   */
  async stream(
    nodeId: number,
    query: PlaneKnown,
    write: (line: string) => Promise<void>,
    hangUp: AbortSignal,
    seconds: number,
    keepaliveSeconds: number,
  ): Promise<void> {
    const signal = AbortSignal.any([hangUp, this.closing.signal]);
    const end = Date.now() + seconds * 1000;
    let known = query;
    for (;;) {
      const left = (end - Date.now()) / 1000;
      if (left <= 0 || signal.aborted) return;
      const next = await this.look(nodeId, known, Math.min(keepaliveSeconds, left), signal);
      if (signal.aborted) return;
      await write(next?.text ?? '');
      if (next) known = { since: next.answer.to, plane: next.answer.planeHash, meta: next.answer.metaHash };
    }
  }

  /** The held look of `poll` and `stream`: the answer and its text, or null when none came in `waitSeconds`. */
  private look(
    nodeId: number,
    query: PlaneKnown,
    waitSeconds: number,
    signal: AbortSignal,
  ): Promise<{ answer: PlaneAnswer; text: string } | null> {
    if (query.since !== undefined) {
      if (this.heldSince.size >= 100_000) this.heldSince.clear();
      this.heldSince.set(nodeId, query.since);
    }
    return this.changes.hold(
      async () => {
        const tick = this.currentTick();
        // Lazily: an install whose nodes poll snapshots only pays the triggers' marks.
        const built = await memoized(tick.memo, 'build', () => this.entries.build());
        if (built.again) tick.again = true;
        const answer = await this.answer(nodeId, query, tick.memo);
        return {
          answer: answer === null ? null : { answer, text: this.text(answer) },
          recheckMs: built.again ? BUSY_RECHECK_MS : RECHECK_MS,
        };
      },
      waitSeconds,
      signal,
    );
  }

  /**
   * The last sequence that changed the node's plane (`current`, '' when its plane was never polled)
   * and the sequence the node last polled from here (`held`, null when none): a node holding a
   * lower one is behind (the operator's node list).
   */
  async currentPlane(nodeId: number): Promise<{ current: string; held: string | null }> {
    const held = this.heldSince.get(nodeId) ?? null;
    const { node, groupIds } = await this.builder.nodeAndGroups(nodeId);
    if (!node) return { current: '', held };
    const changed = await this.plane.changedByKey(planeKeyOf(node, groupIds));
    return { current: changed !== undefined ? String(changed) : '', held };
  }

  /** The looks' shared tick: a new one per generation, and after TICK_MS (BUSY_RECHECK_MS while busy). */
  private currentTick(): Tick {
    const generation = this.changes.generation;
    const now = Date.now();
    const tick = this.tick;
    if (tick && tick.generation === generation && now - tick.at < (tick.again ? BUSY_RECHECK_MS : TICK_MS)) return tick;
    this.tick = { generation, at: now, memo: this.builder.generationMemo(generation), again: false };
    return this.tick;
  }

  /**
   * The answer for the node now, or null when it holds the current plane and meta. Within one
   * `memo` (a tick) the nodes and each plane's state are read once for every node.
   */
  async answer(nodeId: number, query: PlaneKnown, memo: PlaneMemo = new Map()): Promise<PlaneAnswer | null> {
    const { node, groupIds } = await this.builder.nodeAndGroups(nodeId, memo);
    if (!node) return null;
    const key = planeKeyOf(node, groupIds);
    const planeId = this.planeIds.get(key) ?? (await this.ensurePlane(key));
    this.planeIds.set(key, planeId);
    for (let attempt = 1; ; attempt++) {
      const view = await memoized(memo, `view|${planeId}`, () => this.view(planeId));
      try {
        return await this.answerAt(planeId, view, node, query, memo);
      } catch (error) {
        // Another process built between the view and this node's read: the view is read again.
        if (!(error instanceof StaleView) || attempt >= 3) throw error;
        memo.delete(`view|${planeId}`);
      }
    }
  }

  /** The plane's state now: the log's head and floor, its last change and its hash there. */
  private view(planeId: number): Promise<PlaneView> {
    return this.entries.readConsistent(async () => {
      const state = await this.plane.state(planeId);
      const floor = Number(state?.floor ?? 0);
      const changedAt = Number(state?.changed ?? 0);
      const head = Number(state?.head ?? 0);
      const sums = await this.sums.planeHash(planeId, changedAt, floor, head);
      return {
        head,
        floor,
        changedAt,
        planeHash: sums.plane,
        firewallDigest: sums.firewalls,
      };
    });
  }

  /**
   * Runs `read` in one consistent read of the log in which the plane's last change is still the
   * view's (the rows it reads are of the version the view answers); StaleView when it moved on.
   */
  private readAt<T>(planeId: number, view: PlaneView, read: () => Promise<T>): Promise<T> {
    return this.entries.readConsistent(async () => {
      if (Number((await this.plane.changed(planeId)) ?? 0) !== view.changedAt) throw new StaleView();
      return read();
    });
  }

  private async answerAt(
    planeId: number,
    view: PlaneView,
    node: NodeWithZone,
    query: { since?: string; plane?: string; meta?: string },
    memo: PlaneMemo,
  ): Promise<PlaneAnswer | null> {
    const { head, floor, changedAt, planeHash, firewallDigest } = view;
    // The meta of nodes with the same own values (a zone's) is made once per plane state and tick.
    let values = this.ownValues.get(node);
    if (!values) {
      const own = { ...nodeOwnValues(node), forceSSLCode: nodeForceSSLCode(node) };
      values = { own, key: JSON.stringify(own) };
      this.ownValues.set(node, values);
    }
    const { own } = values;
    const { meta, metaHash } = await memoized(memo, `meta|${planeId}|${firewallDigest}|${values.key}`, async () => {
      const { firewalls, settings } = await this.sharedMetaParts(planeId, view, node.ownerId);
      const meta: PlaneMeta = {
        ...own,
        ...settings,
        challenge: this.builder.challenge(node.ownerId, firewalls, new Date(this.clock())),
      };
      return { meta, metaHash: entryHash('meta', '', meta) };
    });
    const since = query.since === undefined ? null : Number(query.since);
    let known: string | null = null;
    if (since !== null && since >= floor && since <= head) {
      const id = `${planeId}:${since}`;
      known =
        this.versions.get(id) ??
        (await memoized(memo, `version|${id}`, async () => {
          const hash = await this.plane.versionHash(planeId, since);
          if (hash !== undefined) this.remember(id, hash);
          return hash ?? null;
        }));
    }
    const to = String(head);
    // Written once per plane and sequence (the first writer's hash stays: ON CONFLICT DO NOTHING),
    // by the first of the tick's nodes to answer it.
    const answered = async () => {
      const id = `${planeId}:${head}`;
      if (this.versions.has(id)) return;
      await memoized(memo, `answered|${id}`, async () => {
        // The row it inserted, or the one another process inserted first.
        const kept = await this.plane.recordVersion(planeId, head, planeHash);
        if (kept !== undefined) this.remember(id, kept);
      });
    };
    // Nothing the plane serves changed since the node's `since` (other planes' changes moved the
    // head only), and the node holds this plane: nothing to say but a new meta.
    const quiet =
      since !== null &&
      since >= changedAt &&
      since <= head &&
      (query.plane === undefined ? known : query.plane) === planeHash;
    // The answers are shared by every node of the plane that gets the same one within the tick (one
    // object: checked and serialised once, see `text`).
    const shared = `${planeId}|${head}|${changedAt}|${metaHash}`;
    if (quiet) {
      if (query.meta === metaHash) return null;
      await answered();
      return memoized(
        memo,
        `quiet|${shared}|${since}`,
        async (): Promise<PlaneAnswer> => ({
          type: 'delta',
          from: String(since),
          to,
          meta,
          metaHash,
          changes: [],
          planeHash,
        }),
      );
    }
    await answered();
    if (since === null || known === null || (query.plane !== undefined && query.plane !== known)) {
      return memoized(memo, `full|${shared}`, async (): Promise<PlaneAnswer> => {
        const rows = await this.readAt(planeId, view, () => this.plane.planeEntries(planeId));
        const entries = rows.map((r) => ({ kind: r.kind, key: r.key, hash: r.hash ?? '', value: parsed(r.value) }));
        return { type: 'full', to, meta, metaHash, entries, planeHash };
      });
    }
    return memoized(memo, `delta|${shared}|${since}`, async (): Promise<PlaneAnswer> => {
      const changes = await this.changesSince(planeId, since, view);
      return { type: 'delta', from: String(since), to, meta, metaHash, changes, planeHash };
    });
  }

  /**
   * The answer as the poll replies it (JSON text), checked against the contract once per answer:
   * the nodes of a plane at one version share one answer object (answerAt), so a change that wakes
   * them all is checked and serialised once, not once per node.
   */
  private text(answer: PlaneAnswer): string {
    let text = this.texts.get(answer);
    if (text === undefined) {
      const checked = planeAnswerSchema.safeParse(answer);
      if (!checked.success) {
        // As a reply that breaks its schema is refused for every other route (bind-route.ts).
        throw new AppError(101002, {
          cause: new Error(`reply of edge.plane breaks its schema: ${checked.error.message}`),
        });
      }
      text = JSON.stringify(checked.data);
      this.texts.set(answer, text);
    }
    return text;
  }

  private remember(id: string, hash: string): void {
    if (this.versions.size >= 10_000) this.versions.clear();
    this.versions.set(id, hash);
  }

  /**
   * The plane's firewalls (once per firewall digest) and the owner's meta settings with them (once
   * per configuration generation and recheck interval).
   */
  private async sharedMetaParts(planeId: number, view: PlaneView, ownerId: number) {
    const { firewallDigest } = view;
    // Read at the view's version (StaleView when the plane moved on): what is kept under a digest
    // is the firewalls of that digest.
    const firewalls = await kept(this.planeFirewalls, `${planeId}:${firewallDigest}`, () =>
      this.readAt(planeId, view, async () =>
        (await this.plane.planeFirewalls(planeId)).map((value) => parsed(value) as EdgeFirewall),
      ),
    );
    // Also per RECHECK_MS: what changes without a write announced (a reputation list a job fetched)
    // shows as late as a held poll's next look would have seen it.
    const id = `${planeId}:${firewallDigest}:${ownerId}:${this.changes.generation}:${Math.floor(this.clock() / RECHECK_MS)}`;
    const settings = await kept(this.metaSettings, id, () => this.builder.ownerSettings(ownerId, firewalls));
    return { firewalls, settings };
  }

  /**
   * The plane's changes since `since` as of `changedAt` (the plane's last change): read once for
   * every node of the plane at that `since` (they poll from the same version), not once per node.
   */
  private changesSince(planeId: number, since: number, view: PlaneView): Promise<PlaneChange[]> {
    const summed = this.sums.summedChanges(planeId, view.changedAt, since);
    if (summed) return Promise.resolve(summed);
    return kept(this.deltas, `${planeId}:${since}:${view.changedAt}`, () =>
      this.readAt(planeId, view, () => planeChanges(this.plane, planeId, since)),
    );
  }

  /** The plane's id, made (with the sites it serves now) when no node polled it before. */
  private async ensurePlane(key: string): Promise<number> {
    const found = await this.plane.planeIdOf(key);
    if (found !== undefined) return found;
    const sites = await this.entries.sitesOfKey(key);
    // Under the log's lock: the site set is the one at the head the plane starts from.
    await this.entries.readConsistentExclusive(() => this.plane.insertPlane(key, sites));
    const made = await this.plane.planeIdOf(key);
    if (made === undefined) throw new Error(`plane ${key} could not be made`);
    return made;
  }

  /** Ends every held poll (they answer null). */
  close(): void {
    this.closing.abort();
  }
}
