import {
  LOG_PUSH_EVENTS_MAX,
  type LogPushDestinationIn,
  type LogPushEvent,
  type LogPushEventCreate,
  type LogPushLogsQuery,
  type LogPushManual,
  type LogPushTestResult,
} from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Caller } from '../../platform/http/bind-route.js';
import { ANY_DESTINATION, type OutgoingCheck, type OutgoingGuard } from '../../platform/http/outgoing.js';
import type { TargetGuard } from '../../platform/http/target-guard.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { AnalyticsRepository } from '../analytics/analytics.repository.js';
import {
  type DestinationSecrets,
  presentLogPushEvent,
  presentLogPushLog,
  splitDestination,
} from './log-push.presenter.js';
import type { LogPushEventRow, LogPushRepository, PushOwner } from './log-push.repository.js';
import { sendBatch } from './log-push.senders.js';
import type { LogPushSource } from './log-push.source.js';

/**
 * Log push events and their delivery log (routes/log-push.ts; docs/decisions.md "Log push"). A
 * customer's events are its own (tier user, its account); an operator's are the operator's (tier
 * client, its root account), shared by its sub-accounts. An id of another owner answers 101018,
 * as an unknown one, before anything else about it is looked at.
 */
export class LogPushService {
  constructor(
    private readonly transactions: Transactions,
    private readonly events: LogPushRepository,
    private readonly analytics: AnalyticsRepository,
    private readonly source: LogPushSource,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly outgoing: OutgoingGuard,
    /** Wakes the job (a new event, a manual push). */
    private readonly wake: () => void = () => {},
  ) {}

  static ownerOf(
    caller: Pick<Caller, 'tier' | 'accountId' | 'operatorId'> & { zoneScope?: Caller['zoneScope'] },
  ): PushOwner {
    if (caller.tier === 'client')
      return { tier: 'client', accountId: caller.operatorId ?? caller.accountId, zoneScope: caller.zoneScope ?? null };
    return { tier: 'user', accountId: caller.accountId };
  }

  async list(caller: Caller, query: { page: number; pageSize: number }) {
    const { rows, total } = await this.events.page(LogPushService.ownerOf(caller), query);
    return { data: rows.map(presentLogPushEvent), total };
  }

  async create(caller: Caller, input: LogPushEventCreate): Promise<LogPushEvent> {
    const owner = LogPushService.ownerOf(caller);
    await this.checkScope(caller, input);
    await this.checkDestination(input.destination);
    const { shown, secrets } = splitDestination(input.destination);
    const cursors = await this.startCursors();
    const row = await this.transactions.run(async () => {
      await this.events.lockOwner(owner);
      if ((await this.events.countOwned(owner)) >= LOG_PUSH_EVENTS_MAX) {
        throw new AppError(101029, { extra: { max: LOG_PUSH_EVENTS_MAX } });
      }
      const now = new Date(this.clock());
      return this.events.insert({
        accountId: owner.accountId,
        tier: owner.tier,
        operatorId: caller.operatorId,
        name: input.name,
        enabled: input.enabled,
        type: input.type,
        siteIds: owner.tier === 'user' ? [...new Set(input.siteIDs ?? [])] : [],
        zoneIds: owner.tier === 'client' ? this.zonesOf(caller, input.zoneIDs) : [],
        filters: input.filters,
        destination: shown,
        secrets: this.seal(secrets),
        ...cursors,
        createdAt: now,
        updatedAt: now,
      });
    });
    this.wake();
    return presentLogPushEvent(row);
  }

  async update(caller: Caller, input: LogPushEventCreate & { id: number }): Promise<LogPushEvent> {
    const owner = LogPushService.ownerOf(caller);
    const row = await this.transactions.run(() => this.own(owner, input.id));
    await this.checkScope(caller, input);
    await this.checkDestination(input.destination);
    const { shown, secrets } = splitDestination(input.destination);
    // Secrets left out are kept when the destination stays of the same kind.
    const kept = row.destination.kind === input.destination.kind ? this.open(row.secrets) : {};
    const merged: DestinationSecrets = { ...kept, ...secrets };
    const switched = (row.type === 'audit') !== (input.type === 'audit');
    const updated = await this.transactions.run(async () => {
      await this.own(owner, input.id);
      return this.events.update(input.id, {
        name: input.name,
        enabled: input.enabled,
        type: input.type,
        siteIds: owner.tier === 'user' ? [...new Set(input.siteIDs ?? [])] : [],
        zoneIds: owner.tier === 'client' ? this.zonesOf(caller, input.zoneIDs) : [],
        filters: input.filters,
        destination: shown,
        secrets: this.seal(merged),
        // A new version starts its delivery afresh: a dead event resends from its cursor.
        state: 'active',
        lastError: null,
        attempt: 0,
        nextAttemptAt: null,
        failingSince: null,
        ...(switched ? await this.startCursors() : {}),
        updatedAt: new Date(this.clock()),
      });
    });
    this.wake();
    return presentLogPushEvent(updated);
  }

  async delete(caller: Caller, ids: number[]): Promise<void> {
    const owner = LogPushService.ownerOf(caller);
    await this.transactions.run(async () => {
      const rows = await this.events.owned(owner, ids);
      if (rows.length !== new Set(ids).size) throw new AppError(101018);
      await this.events.delete(ids);
    });
  }

  async manual(caller: Caller, input: LogPushManual): Promise<void> {
    const owner = LogPushService.ownerOf(caller);
    await this.transactions.run(async () => {
      const row = await this.own(owner, input.id);
      if (row.type === 'audit') throw invalidFields([{ field: 'id', key: 'invalidValue' }]);
      await this.events.insertManual({
        eventId: row.id,
        startTs: Math.floor(Date.parse(input.startTime) / 1000),
        endTs: Math.ceil(Date.parse(input.endTime) / 1000),
      });
    });
    this.wake();
  }

  /**
   * The console's "send a test": one sample record of the event's log to its destination now,
   * outside the delivery order, the cursor and the delivery log (the SSRF rule as every send).
   */
  async test(caller: Caller, id: number): Promise<LogPushTestResult> {
    const row = await this.transactions.run(() => this.own(LogPushService.ownerOf(caller), id));
    const now = this.clock();
    const time = new Date(now).toISOString();
    const record: Record<string, unknown> =
      row.type === 'audit'
        ? { id: 0, time, accountID: row.accountId, action: 'logPush.test', method: 'POST', url: '', test: true }
        : {
            reqID: `test-${now}`,
            time,
            host: 'test.invalid',
            method: 'GET',
            url: '/rampart-log-push-test',
            status: 200,
            fwKind: row.type === 'waf' ? 'waf' : '',
            test: true,
          };
    const started = Date.now();
    try {
      await sendBatch(
        { ...row.destination, ...this.open(row.secrets) } as LogPushDestinationIn,
        { type: row.type, records: [record], ids: [null], times: [now], hosts: ['test.invalid'] },
        {
          targets: this.outgoing.targets,
          check: this.outgoingCheck(row.operatorId),
          connectTimeoutMs: 5000,
          requestTimeoutMs: 10_000,
        },
        now,
      );
      return { ok: true, error: null, ms: Date.now() - started };
    } catch (e) {
      const error = (e instanceof Error ? e.message : String(e)).slice(0, 1000);
      return { ok: false, error, ms: Date.now() - started };
    }
  }

  async logs(caller: Caller, query: LogPushLogsQuery) {
    const owner = LogPushService.ownerOf(caller);
    const scope =
      owner.tier === 'client'
        ? { operatorId: owner.accountId, zoneScope: owner.zoneScope ?? null }
        : { accountId: owner.accountId };
    const { rows, total } = await this.events.logs(scope, {
      ...query,
      userID: owner.tier === 'client' ? query.userID : undefined,
    });
    return { data: rows.map(presentLogPushLog), total };
  }

  /** The address rule every send passes (platform/http/target-guard.ts). */
  get targets(): TargetGuard {
    return this.outgoing.targets;
  }

  /** The outgoing URL list an event's sends pass: its operator's (none for an event outside every operator). */
  outgoingCheck(operatorId: number | null): OutgoingCheck {
    return operatorId === null ? ANY_DESTINATION : this.outgoing.of(operatorId);
  }

  /** The destination's secrets, opened (the job's use). */
  secretsOf(row: LogPushEventRow): DestinationSecrets {
    return this.open(row.secrets);
  }

  /**
   * An operator event's zones: those named, or none (all of the operator's) — but a sub-account
   * restricted to some zones (whose named zones the binder checked) gets its zones for "all".
   */
  private zonesOf(caller: Caller, zoneIDs: number[] | undefined): number[] {
    const named = [...new Set(zoneIDs ?? [])];
    if (named.length === 0 && caller.zoneScope) return [...caller.zoneScope].sort((x, y) => x - y);
    return named;
  }

  private seal(secrets: DestinationSecrets): string | null {
    return Object.keys(secrets).length === 0 ? null : this.box.seal(JSON.stringify(secrets));
  }

  private open(sealed: string | null): DestinationSecrets {
    return sealed === null ? {} : (JSON.parse(this.box.open(sealed)) as DestinationSecrets);
  }

  /** Where a new event (or one switched between the audit log and the others) starts: now. */
  private async startCursors() {
    return {
      cursorReceivedAt: Date.now(),
      cursorBatch: '',
      cursorRequest: '',
      cursorAudit: await this.source.auditHead(),
    };
  }

  private async own(owner: PushOwner, id: number): Promise<LogPushEventRow> {
    const [row] = await this.events.owned(owner, [id]);
    if (!row) throw new AppError(101018);
    return row;
  }

  /** A customer's sites must be its own, an operator's zones its own (101018 otherwise). */
  private async checkScope(caller: Caller, input: LogPushEventCreate): Promise<void> {
    if (caller.tier === 'user' && input.siteIDs && input.siteIDs.length > 0) {
      const ids = [...new Set(input.siteIDs)];
      const visible = await this.analytics.visibleSites({ userId: caller.accountId }, { siteIds: ids });
      if (visible.length !== ids.length) throw new AppError(101018);
    }
    if (caller.tier === 'client' && input.zoneIDs && input.zoneIDs.length > 0) {
      const ids = [...new Set(input.zoneIDs)];
      const owned = await this.events.ownedZones(caller.operatorId ?? -1, ids);
      if (owned.length !== ids.length) throw new AppError(101018);
    }
  }

  /**
   * The address rule at save time, the one every send applies (platform/http/target-guard.ts): a
   * destination whose host is or resolves to an address the installation refuses is refused
   * (targetNotAllowed). A host that does not resolve now is accepted; every send resolves and checks again.
   */
  private async checkDestination(d: LogPushDestinationIn): Promise<void> {
    const host = d.kind === 'syslog' ? d.host : new URL(d.url).hostname;
    const field = d.kind === 'syslog' ? 'destination.host' : 'destination.url';
    if (!(await this.outgoing.targets.savable(host))) throw invalidFields([{ field, key: 'targetNotAllowed' }]);
  }
}
