import type { PlaneChange } from '@rampart/contract';
import type { PlaneReadsRepository } from './plane-reads.repository.js';
import type { PlaneSum } from './plane-state.js';
import { parsed } from './site-entries.js';

/** Plane hashes are sums modulo 2^48 (docs/data-plane-deltas.md). */
const PLANE_MOD = 2n ** 48n;
/** The entry hashes of at most this many planes are kept in memory (each ~100 bytes an entry). */
const PLANES_SUMMED = 16;
const FIREWALL_PREFIX = 'firewall\0';

/** The plane's changes since `since`, as a delta answers them. */
export async function planeChanges(
  plane: PlaneReadsRepository,
  planeId: number,
  since: number,
): Promise<PlaneChange[]> {
  const rows = await plane.changesSince(planeId, since);
  const changes: PlaneChange[] = rows.map((r) =>
    r.hash === null
      ? { op: 'del', kind: r.kind, key: r.key }
      : { op: 'put', kind: r.kind, key: r.key, hash: r.hash, value: parsed(r.value) },
  );
  return changes;
}

/** Per plane, its entries' hashes and their sum (plane.service.ts keeps one for every plane it answers). */
export class PlaneSums {
  /** The plane hash being computed, per plane: one at a time (they update the plane's kept sum). */
  private readonly hashes = new Map<number, Promise<unknown>>();
  /**
   * Per plane, the changes the last update of its sum read (from the sum's sequence to the plane's
   * change): the delta of every node that held the plane as that sum was (a `since` in
   * [from, upTo]), which is every node following the plane, so their delta costs no read.
   */
  private readonly summed = new Map<
    number,
    { from: number; upTo: number; changedAt: number; changes: PlaneChange[] }
  >();
  /** Per plane, its entries' hashes and their sum as of a sequence (oldest plane first). */
  private readonly sums = new Map<number, PlaneSum>();

  constructor(private readonly plane: PlaneReadsRepository) {}

  /**
   * The changes since `since` as of `changedAt` when the last update of the plane's sum read them:
   * nothing of the plane changed in (from, upTo], so the changes since `since` are those since
   * `from` (a site that joined the plane later may add a put the node holds, or a del of a key it
   * does not: both leave its entries and hash as the plane's).
   */
  summedChanges(planeId: number, changedAt: number, since: number): PlaneChange[] | undefined {
    const summed = this.summed.get(planeId);
    if (summed && summed.changedAt === changedAt && since >= summed.from && since <= summed.upTo) return summed.changes;
    return undefined;
  }

  /**
   * The sum of the plane's entries' hashes (mod 2^48) as of `changedAt`. Kept per plane with each
   * entry's hash, so a change costs the keys it changed (read from the log since the last sum, with
   * the keys of sites that joined or left the plane), not a sum over the whole plane; summed whole
   * the first time, or when the log no longer reaches back to the last sum. Runs in the caller's
   * consistent read, at the view's `head`.
   */
  planeHash(
    planeId: number,
    changedAt: number,
    floor: number,
    head: number,
  ): Promise<{ plane: string; firewalls: string }> {
    const run = (this.hashes.get(planeId) ?? Promise.resolve()).then(() => this.sumAt(planeId, changedAt, floor, head));
    const kept = run.catch(() => {
      this.sums.delete(planeId);
      this.summed.delete(planeId);
    });
    this.hashes.set(planeId, kept);
    kept.finally(() => {
      if (this.hashes.get(planeId) === kept) this.hashes.delete(planeId);
    });
    return run;
  }

  private async sumAt(
    planeId: number,
    changedAt: number,
    floor: number,
    head: number,
  ): Promise<{ plane: string; firewalls: string }> {
    const hex = (total: bigint) => (((total % PLANE_MOD) + PLANE_MOD) % PLANE_MOD).toString(16).padStart(12, '0');
    const sums = (sum: PlaneSum) => ({ plane: hex(sum.total), firewalls: hex(sum.firewalls) });
    const memo = this.sums.get(planeId);
    if (memo && memo.at === changedAt) {
      memo.quietTo = Math.max(memo.quietTo, head);
      return sums(memo);
    }
    if (memo && memo.at < changedAt && memo.at >= floor) {
      // The keys changed since the sum (sites that joined or left the plane included), with their
      // values: the same read is the delta of the nodes that follow the plane (changesSince).
      const changes = await planeChanges(this.plane, planeId, memo.at);
      for (const change of changes) {
        const id = `${change.kind}\0${change.key}`;
        const before = memo.hashes.get(id) ?? 0n;
        const value = change.op === 'del' ? 0n : BigInt(`0x${change.hash}`);
        if (change.op === 'del') memo.hashes.delete(id);
        else memo.hashes.set(id, value);
        memo.total += value - before;
        if (id.startsWith(FIREWALL_PREFIX)) memo.firewalls += value - before;
      }
      this.summed.set(planeId, { from: memo.at, upTo: memo.quietTo, changedAt, changes });
      memo.at = changedAt;
      memo.quietTo = head;
      return sums(memo);
    }
    this.summed.delete(planeId);
    const rows = await this.plane.planeHashes(planeId);
    const hashes = new Map<string, bigint>();
    let total = 0n;
    let firewalls = 0n;
    for (const row of rows) {
      const value = BigInt(`0x${row.hash}`);
      hashes.set(`${row.kind}\0${row.key}`, value);
      total += value;
      if (row.kind === 'firewall') firewalls += value;
    }
    if (this.sums.size >= PLANES_SUMMED && !this.sums.has(planeId)) {
      const oldest = this.sums.keys().next().value;
      if (oldest !== undefined) {
        this.sums.delete(oldest);
        this.summed.delete(oldest);
      }
    }
    const sum = { at: changedAt, quietTo: head, hashes, total, firewalls };
    this.sums.set(planeId, sum);
    return sums(sum);
  }
}
