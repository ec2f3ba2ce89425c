import { randomBytes } from 'node:crypto';
import type { ConfigChanges } from '../../platform/changes.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors/app-error.js';
import { desiredRecords, publishedLines, setKey } from './desired-records.js';
import type { RecordChange, RecordSet } from './dns-provider.js';
import type { DnsPublishRepository, UnprocessedRow } from './dns-publish.repository.js';
import type { DnsSettingsService } from './dns-settings.service.js';

/** Types Rampart publishes at its names (a TXT there, such as an ACME challenge, is not its business). */
const PUBLISHED_TYPES = new Set(['A', 'AAAA', 'CNAME']);

export interface DnsReconcilerOptions {
  /** Wait after a change before a pass, so a burst of changes makes one pass (ms). */
  readonly debounceMs: number;
  /** A pass over every operator at least this often, retrying due failures (ms; 0: only when woken). */
  readonly periodMs: number;
  /** Retry waits of a failed change: `base` doubling per attempt up to `max` (ms). */
  readonly backoff: { readonly base: number; readonly max: number };
  /** How long a pass may hold an operator's lease (ms); another process takes it over after that. */
  readonly leaseMs: number;
}

export const DNS_RECONCILER_DEFAULTS: DnsReconcilerOptions = {
  debounceMs: 1000,
  periodMs: 30_000,
  backoff: { base: 5000, max: 600_000 },
  leaseMs: 120_000,
};

export interface ReconcileResult {
  /** Whether this process held the operator's lease (false: another process is reconciling it). */
  readonly ran: boolean;
  readonly written: number;
  readonly failed: number;
}

export interface ReconcilerLog {
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

/**
 * Publishes each operator's records at its DNS provider (docs/decisions.md "Publishing DNS records"):
 * computes the desired sets (desired-records.ts), lists what the provider holds at the names Rampart
 * owns (those it wrote, kept in `dns_published_names`, and those it is about to write), and writes only
 * the differences, one change at a time. A change the provider refuses lands in `dns_unprocessed`
 * with its error and is retried with exponential backoff; `full` passes (`dns/recovery`) rewrite every
 * set and ignore the backoff. Woken by configuration changes and monitor transitions (debounced) and
 * by a timer; one process at a time per operator (a lease row).
 */
export class DnsReconciler {
  /** This process's mark on the leases it holds. */
  readonly holder = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private readonly controller = new AbortController();
  private loop: Promise<void> | null = null;
  private readonly running = new Map<number, Promise<ReconcileResult>>();

  constructor(
    private readonly repo: DnsPublishRepository,
    private readonly settings: DnsSettingsService,
    private readonly cnameDomainOf: (operatorId: number) => Promise<string>,
    private readonly downNodes: (operatorId: number, nodeIds: number[]) => Promise<Set<number>>,
    private readonly clock: Clock,
    private readonly log: ReconcilerLog,
    private readonly options: DnsReconcilerOptions = DNS_RECONCILER_DEFAULTS,
  ) {}

  /** Runs passes when any of `signals` is bumped (after the debounce) and every `periodMs`. */
  start(signals: readonly ConfigChanges[]): void {
    if (this.loop) return;
    const signal = this.controller.signal;
    this.loop = (async () => {
      let seen = signals.map((s) => s.generation);
      while (!signal.aborted) {
        const wait = this.options.periodMs > 0 ? this.options.periodMs : 2 ** 31 - 1;
        const bumped = await Promise.race(signals.map((s, i) => s.next(wait, signal, seen[i])));
        if (signal.aborted) return;
        if (bumped) await sleep(this.options.debounceMs, signal);
        if (signal.aborted) return;
        seen = signals.map((s) => s.generation);
        await this.passAll();
      }
    })();
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.loop;
    await Promise.allSettled([...this.running.values()]);
  }

  /** One pass over every operator with a provider; failures are logged, never thrown. */
  async passAll(): Promise<void> {
    let operators: number[];
    try {
      operators = await this.repo.operatorsWithProvider();
    } catch (err) {
      this.log.error({ err }, 'dns reconcile: cannot list operators');
      return;
    }
    for (const operatorId of operators) {
      if (this.controller.signal.aborted) return;
      try {
        await this.reconcile(operatorId);
      } catch (err) {
        this.log.error({ err, operatorId }, 'dns reconcile failed');
      }
    }
  }

  /**
   * Reconciles one operator now (after the pass running for it in this process, if any). `full`
   * rewrites every desired set and retries every failure at once. 101006 when it has no provider.
   */
  reconcile(operatorId: number, full = false): Promise<ReconcileResult> {
    const before = this.running.get(operatorId) ?? Promise.resolve(null);
    const next = before
      .catch(() => null)
      .then(() => this.pass(operatorId, full))
      .finally(() => {
        if (this.running.get(operatorId) === next) this.running.delete(operatorId);
      });
    this.running.set(operatorId, next);
    return next;
  }

  private async pass(operatorId: number, full: boolean): Promise<ReconcileResult> {
    const setting = await this.settings.get(operatorId);
    if (!setting) throw new AppError(101006);
    const now = new Date(this.clock());
    if (!(await this.repo.takeLease(operatorId, this.holder, now, new Date(now.getTime() + this.options.leaseMs)))) {
      return { ran: false, written: 0, failed: 0 };
    }
    try {
      return await this.publish(operatorId, setting.ttl, full, now);
    } finally {
      await this.repo.releaseLease(operatorId, this.holder, new Date(this.clock()));
    }
  }

  /** The record sets the operator's configuration asks for at `provider`. */
  async desired(operatorId: number, zone: string, lines: readonly string[], ttl: number): Promise<RecordSet[]> {
    // One after the other: the repository may run on one connection (a transaction, PGlite).
    const domains = await this.repo.domainsOf(operatorId);
    const productGroups = await this.repo.productGroupsOf(operatorId);
    const nodePlacements = await this.repo.nodePlacementsOf(operatorId);
    const virtualPlacements = await this.repo.virtualPlacementsOf(operatorId);
    const virtualRecords = await this.repo.virtualRecordsOf(operatorId);
    const nodeAddresses = await this.repo.nodeAddressesOf(operatorId);
    const cnameDomain = await this.cnameDomainOf(operatorId);
    const down = await this.downNodes(operatorId, [...nodeAddresses.keys()]);
    return desiredRecords({
      cnameDomain,
      zone,
      lines: publishedLines(lines),
      ttl,
      domains,
      productGroups,
      nodePlacements,
      virtualPlacements,
      virtualRecords,
      nodeAddresses,
      down,
    });
  }

  private async publish(operatorId: number, ttl: number, full: boolean, now: Date): Promise<ReconcileResult> {
    const provider = await this.settings.providerOf(operatorId);
    const desired = await this.desired(operatorId, provider.zone, provider.lines, ttl);
    const published = await this.repo.publishedNames(operatorId);
    const names = [...new Set([...desired.map((s) => s.name), ...published])].sort();
    const unprocessed = new Map<string, UnprocessedRow>(
      (await this.repo.unprocessedOf(operatorId)).map((row) => [setKey(row), row]),
    );

    let held: RecordSet[];
    try {
      held = names.length === 0 ? [] : await provider.listRecords(names);
    } catch (err) {
      // Nothing can be compared: every desired set waits in dns/unprocessed with the listing's error.
      const error = errorText(err);
      let failed = 0;
      for (const set of desired) {
        if (!full && waiting(unprocessed.get(setKey(set)), now)) continue;
        await this.failed(operatorId, { kind: 'upsert', set }, error);
        failed++;
      }
      this.log.warn({ operatorId, error }, 'dns reconcile: the provider could not list records');
      return { ran: true, written: 0, failed };
    }
    const heldByKey = new Map(held.filter((s) => PUBLISHED_TYPES.has(s.type)).map((s) => [setKey(s), s]));
    const desiredKeys = new Set(desired.map(setKey));

    // Deletions first: a name going from addresses to a CNAME must lose its A/AAAA sets before.
    const changes: RecordChange[] = [];
    for (const [key, set] of heldByKey) {
      if (!desiredKeys.has(key)) changes.push({ kind: 'delete', name: set.name, type: set.type, line: set.line });
    }
    for (const set of desired) {
      if (full || !sameSet(heldByKey.get(setKey(set)), set)) changes.push({ kind: 'upsert', set });
    }

    let written = 0;
    let failed = 0;
    const failedNames = new Set<string>();
    const pending = new Set<string>();
    for (const change of changes) {
      const key = changeKey(change);
      pending.add(key);
      const row = unprocessed.get(key);
      if (!full && waiting(row, now)) {
        failedNames.add(nameOf(change));
        continue;
      }
      // Recorded before the write: a write that half happened is still known as Rampart's.
      if (change.kind === 'upsert') await this.repo.addPublishedName(operatorId, change.set.name);
      try {
        await provider.applyChanges([change]);
        written++;
        if (row)
          await this.repo.clearUnprocessed(
            operatorId,
            change.kind === 'upsert' ? change.set.name : change.name,
            typeOf(change),
            lineOf(change),
          );
      } catch (err) {
        failed++;
        failedNames.add(nameOf(change));
        await this.failed(operatorId, change, errorText(err));
      }
    }
    // Failures the provider no longer needs (it holds what is wanted there) are done with.
    for (const [key, row] of unprocessed) {
      if (!pending.has(key)) await this.repo.clearUnprocessed(operatorId, row.name, row.type, row.line);
    }
    const desiredNames = new Set(desired.map((s) => s.name));
    for (const name of published) {
      if (!desiredNames.has(name) && !failedNames.has(name)) await this.repo.removePublishedName(operatorId, name);
    }
    return { ran: true, written, failed };
  }

  private async failed(operatorId: number, change: RecordChange, error: string): Promise<void> {
    const { base, max } = this.options.backoff;
    const at = this.clock();
    await this.repo.recordFailure(
      {
        ownerId: operatorId,
        name: nameOf(change),
        type: typeOf(change) as 'A' | 'AAAA' | 'CNAME',
        line: lineOf(change),
        action: change.kind,
        ttl: change.kind === 'upsert' ? change.set.ttl : 0,
        values: change.kind === 'upsert' ? [...change.set.values] : [],
        error: error.slice(0, 1000),
      },
      (attempts) => new Date(at + Math.min(max, base * 2 ** Math.min(attempts - 1, 30))),
    );
  }
}

/** Whether a failed change is still within its backoff. */
function waiting(row: UnprocessedRow | undefined, now: Date): boolean {
  return row !== undefined && row.nextAttemptAt.getTime() > now.getTime();
}

function sameSet(a: RecordSet | undefined, b: RecordSet): boolean {
  return a !== undefined && a.ttl === b.ttl && a.values.join(' ') === b.values.join(' ');
}
const nameOf = (c: RecordChange) => (c.kind === 'upsert' ? c.set.name : c.name);
const typeOf = (c: RecordChange) => (c.kind === 'upsert' ? c.set.type : c.type);
const lineOf = (c: RecordChange) => (c.kind === 'upsert' ? c.set.line : c.line);
const changeKey = (c: RecordChange) => setKey({ name: nameOf(c), type: typeOf(c), line: lineOf(c) });

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
