import {
  HEALTH_CERT_EXPIRING_DAYS,
  HEALTH_LICENCE_WARN_DAYS,
  HEALTH_QUEUE_WARN,
  type HealthCheck,
  type HealthStatus,
  NODE_ONLINE_WINDOW_SECONDS,
  type SystemHealth,
} from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import type { LicenseLimits } from '../licenses/license-limits.js';
import type { SystemStateRepository } from './system-state.repository.js';

const DAY_MS = 86_400_000;

/**
 * What the health asks of the analytics store: whether it answers (resolves), or its error. Declared
 * here, met by the analytics module's reads (StatisticsReads.ping), so this module imports none of it.
 */
export interface AnalyticsProbe {
  ping(): Promise<void>;
}
const RANK: Record<HealthStatus, number> = { ok: 0, warn: 1, error: 2 };

/**
 * The operator's system health (contract routes/system-health.ts; docs/decisions.md "System
 * health"). Every check runs on its own: one part failing is that part's error, never the page's.
 */
export class SystemHealthService {
  constructor(
    private readonly database: Database,
    private readonly analytics: AnalyticsProbe,
    private readonly state: SystemStateRepository,
    private readonly licenses: LicenseLimits,
    private readonly clock: Clock,
  ) {}

  async check(operatorId: number): Promise<SystemHealth> {
    const checks: HealthCheck[] = [];
    // One after the other: the repositories may share one connection (PGlite).
    checks.push(await this.configStore());
    checks.push(await this.analyticsStore());
    for (const run of [
      () => this.jobQueue(operatorId),
      () => this.nodes(operatorId),
      () => this.certificates(operatorId),
      () => this.dns(operatorId),
      () => this.licence(operatorId),
    ]) {
      checks.push(await run());
    }
    const status = checks.reduce<HealthStatus>((worst, c) => (RANK[c.status] > RANK[worst] ? c.status : worst), 'ok');
    return { status, checks, checkedAt: new Date(this.clock()).toISOString() };
  }

  private async configStore(): Promise<HealthCheck> {
    const ok = await this.database.ping();
    return {
      part: 'configStore',
      status: ok ? 'ok' : 'error',
      message: ok ? `${this.database.driver} answers` : `${this.database.driver} does not answer`,
      details: { driver: this.database.driver },
    };
  }

  private async analyticsStore(): Promise<HealthCheck> {
    try {
      await this.analytics.ping();
      return { part: 'analyticsStore', status: 'ok', message: 'the analytics store answers', details: {} };
    } catch (error) {
      return {
        part: 'analyticsStore',
        status: 'error',
        message: `the analytics store does not answer: ${errorText(error)}`,
        details: {},
      };
    }
  }

  /** A part whose query failed: an error that says so, the other parts still checked. */
  private async guarded(part: HealthCheck['part'], run: () => Promise<HealthCheck>): Promise<HealthCheck> {
    try {
      return await run();
    } catch (error) {
      return { part, status: 'error', message: `cannot check: ${errorText(error)}`, details: {} };
    }
  }

  private jobQueue(operatorId: number): Promise<HealthCheck> {
    return this.guarded('jobQueue', async () => {
      const byStatus = new Map((await this.state.nodeCommands(operatorId)).map((r) => [r.status, r.count]));
      const queued = (byStatus.get('queued') ?? 0) + (byStatus.get('sent') ?? 0);
      const failed = byStatus.get('failed') ?? 0;
      const expired = byStatus.get('expired') ?? 0;
      const status: HealthStatus = queued > HEALTH_QUEUE_WARN || expired > 0 || failed > 0 ? 'warn' : 'ok';
      return {
        part: 'jobQueue',
        status,
        message: `${queued} node commands waiting, ${failed} failed, ${expired} expired`,
        details: { queued, failed, expired },
      };
    });
  }

  private nodes(operatorId: number): Promise<HealthCheck> {
    return this.guarded('nodes', async () => {
      const since = new Date(this.clock() - NODE_ONLINE_WINDOW_SECONDS * 1000);
      const { up, down, uninitialized } = await this.state.nodeCounts(operatorId, since);
      const status: HealthStatus = down === 0 ? 'ok' : up === 0 ? 'error' : 'warn';
      return {
        part: 'nodes',
        status,
        message: `${up} nodes up, ${down} down, ${uninitialized} not placed`,
        details: { up, down, uninitialized },
      };
    });
  }

  private certificates(operatorId: number): Promise<HealthCheck> {
    return this.guarded('certificates', async () => {
      const failed = (await this.state.autoCertificates(operatorId)).find((r) => r.status === 'failed')?.count ?? 0;
      const expiring = await this.state.autoCertificatesExpiring(
        operatorId,
        new Date(this.clock() + HEALTH_CERT_EXPIRING_DAYS * DAY_MS),
      );
      return {
        part: 'certificates',
        status: failed > 0 || expiring > 0 ? 'warn' : 'ok',
        message: `${failed} automatic certificates failed, ${expiring} expire within ${HEALTH_CERT_EXPIRING_DAYS} days`,
        details: { failed, expiring, days: HEALTH_CERT_EXPIRING_DAYS },
      };
    });
  }

  private dns(operatorId: number): Promise<HealthCheck> {
    return this.guarded('dns', async () => {
      const unprocessed = await this.state.dnsUnprocessed(operatorId);
      return {
        part: 'dns',
        status: unprocessed > 0 ? 'warn' : 'ok',
        message: `${unprocessed} DNS record changes refused by the provider, waiting for a retry`,
        details: { unprocessed },
      };
    });
  }

  private licence(operatorId: number): Promise<HealthCheck> {
    return this.guarded('licence', async () => {
      const info = await this.licenses.info(operatorId, '');
      if (info.source === 'none') {
        return {
          part: 'licence',
          status: 'ok',
          message: 'no licence: nothing is limited',
          details: { source: 'none', daysLeft: null },
        };
      }
      const status: HealthStatus = info.expired
        ? 'error'
        : (info.daysLeft ?? 0) < HEALTH_LICENCE_WARN_DAYS
          ? 'warn'
          : 'ok';
      return {
        part: 'licence',
        status,
        message: info.expired
          ? 'the licence has expired'
          : `the ${info.source} licence expires in ${info.daysLeft} days`,
        details: { source: info.source, daysLeft: info.daysLeft },
      };
    });
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
