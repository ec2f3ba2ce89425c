import type { AutoCertificate, AutoCertificateListQuery } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import type { AutoCertificatesJob } from './auto-certificates.job.js';
import type { AutoCertificatesRepository } from './auto-certificates.repository.js';

type Row = Awaited<ReturnType<AutoCertificatesRepository['list']>>['rows'][number];

function present(row: Row): AutoCertificate {
  return {
    id: row.id,
    domainID: row.domainId,
    domain: row.domain,
    siteID: row.siteId,
    siteName: row.siteName,
    status: row.status,
    challenge: row.domain.startsWith('*.') ? 'dns-01' : 'http-01',
    notAfter: row.notAfter?.toISOString() ?? null,
    lastError: row.lastError,
    failures: row.failures,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt.toISOString(),
  };
}

/** The operator's automatic certificates (contract: auto-certificates.ts), scoped to its sites. */
export class AutoCertificatesService {
  constructor(
    private readonly repo: AutoCertificatesRepository,
    private readonly transactions: Transactions,
    private readonly job: Pick<AutoCertificatesJob, 'wake'>,
    private readonly clock: Clock,
  ) {}

  /** Domains that turned auto SSL on since the job's last round are listed (as pending) at once. */
  async list(operatorId: number, q: AutoCertificateListQuery) {
    await this.repo.sync();
    const { rows, total } = await this.repo.list(
      operatorId,
      { ...q, expiresBefore: q.expiresBefore ? new Date(q.expiresBefore) : undefined },
      q.page,
      q.pageSize,
    );
    return { data: rows.map(present), total };
  }

  /** All or none: an id of another operator's site answers 101018; the job runs after the commit. */
  async renew(operatorId: number, ids: number[]): Promise<void> {
    await this.transactions.run(async () => {
      requireEvery(await this.repo.renewNow(operatorId, ids, new Date(this.clock())), ids);
    });
    this.transactions.afterCommit(() => this.job.wake());
  }
}
