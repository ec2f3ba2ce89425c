import { AUTO_CERT_RENEW_DAYS } from '@rampart/contract';
import * as acme from 'acme-client';
import type { ConfigChanges } from '../../platform/changes.js';
import type { Clock } from '../../platform/clock.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import type { CertificatesRepository } from '../certificates/certificates.repository.js';
import { certificateColumns } from '../certificates/certificates.service.js';
import { parseCertificate } from '../certificates/x509.js';
import { canonicalName, recordSet } from '../dns/dns-provider.js';
import type { DnsSettingsService } from '../dns/dns-settings.service.js';
import type { AcmeSettingsService } from './acme-settings.service.js';
import type { AutoCertificatesRepository, ClaimedCertificate } from './auto-certificates.repository.js';

const DAY_MS = 86_400_000;

export interface AutoCertTiming {
  /** How often the job looks for due certificates (ms); 0 = only when driven (tests). */
  readonly tickMs: number;
  /** The first retry's wait after a failure, doubled per failure up to `retryMaxMs`. */
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  /** How long a process holds a row it issues (another process takes it over after this). */
  readonly leaseMs: number;
  /** The wait between publishing a challenge (nodes' snapshots, DNS) and asking the CA to check it. */
  readonly settleMs: number;
}

export const DEFAULT_AUTO_CERT_TIMING: AutoCertTiming = {
  tickMs: 60_000,
  retryBaseMs: 5 * 60_000,
  retryMaxMs: DAY_MS,
  leaseMs: 10 * 60_000,
  settleMs: 5000,
};

/** Certificates one round issues, one after another (the rest wait for the next round). */
const ROUND_SIZE = 10;

/** The wait before the attempt after `failures` failed ones: base·2^(failures-1), capped. */
export function retryDelay(failures: number, timing: Pick<AutoCertTiming, 'retryBaseMs' | 'retryMaxMs'>): number {
  return Math.min(timing.retryBaseMs * 2 ** Math.max(0, failures - 1), timing.retryMaxMs);
}

/** What an error says, without stack or newlines, bounded (it is shown to the customer). */
function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim().slice(0, 1000) || 'unknown error';
}

/**
 * Issues and renews automatic certificates (docs/decisions.md "Automatic certificates"). Each
 * round makes rows for domains that turned auto SSL on, takes the due ones under a lease (one
 * process per domain at a time, across control planes), and for each: orders a certificate from
 * the operator's CA, publishes the challenge — HTTP-01 as data in the snapshots of the nodes that
 * carry the domain, DNS-01 (wildcards) through the operator's DNS provider — then stores the
 * certificate as the domain's (a renewal replaces the chain of the same certificate row, so the
 * nodes take it without a reload, like an upload). Every attempt is recorded; a failure is
 * retried with exponential backoff, a success renewed AUTO_CERT_RENEW_DAYS before expiry.
 */
export class AutoCertificatesJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private again = false;

  constructor(
    private readonly repo: AutoCertificatesRepository,
    private readonly certificates: CertificatesRepository,
    readonly acmeSettings: AcmeSettingsService,
    private readonly dnsSettings: DnsSettingsService,
    private readonly transactions: Transactions,
    private readonly box: SecretBox,
    private readonly changes: ConfigChanges,
    private readonly clock: Clock,
    private readonly timing: AutoCertTiming,
    private readonly onError: (error: unknown) => void,
    /** Told of each failed attempt after it was recorded (the operator's and customer's alert). */
    private readonly onFailure: (row: ClaimedCertificate, reason: string, at: Date) => Promise<void> = async () => {},
  ) {}

  start(): void {
    if (this.timer || this.timing.tickMs <= 0) return;
    this.timer = setInterval(() => this.wake(), this.timing.tickMs);
    this.timer.unref();
  }

  /**
   * Domains turned auto SSL on: a round now, when the job runs on its own (a job that is not
   * started, as in the tests that drive rounds themselves, is left alone).
   */
  soon(): void {
    if (this.timer) this.wake();
  }

  /** Runs a round now (or right after the one running). */
  wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** One round; failures are recorded per certificate and logged, never thrown. */
  async round(): Promise<number> {
    try {
      await this.repo.sync();
      const now = new Date(this.clock());
      const due = await this.repo.claimDue(now, new Date(now.getTime() + this.timing.leaseMs), ROUND_SIZE);
      for (const row of due) await this.attempt(row);
      return due.length;
    } catch (error) {
      this.onError(error);
      return 0;
    }
  }

  /** Resolves when no round runs (one woken meanwhile included). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** The recorded attempts of one certificate, oldest first. */
  attemptsOf(id: number) {
    return this.repo.attempts(id);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async attempt(row: ClaimedCertificate): Promise<void> {
    const attemptId = await this.repo.startAttempt(row.id, new Date(this.clock()));
    let cleanup: (() => Promise<void>) | undefined;
    try {
      const { client } = await this.acmeSettings.clientFor(row.operatorId);
      const wildcard = row.name.startsWith('*.');
      const order = await client.createOrder({ identifiers: [{ type: 'dns', value: row.name }] });
      const authorizations = await client.getAuthorizations(order);
      for (const authz of authorizations) {
        if (authz.status === 'valid') continue;
        const type = wildcard ? 'dns-01' : 'http-01';
        const challenge = authz.challenges.find((c) => c.type === type);
        if (!challenge) throw new Error(`the CA offers no ${type} challenge for ${row.name}`);
        const keyAuthorization = await client.getChallengeKeyAuthorization(challenge);
        cleanup = wildcard
          ? await this.publishDns(row, authz.identifier.value, keyAuthorization)
          : await this.publishHttp(row, challenge.token, keyAuthorization);
        if (this.timing.settleMs > 0) await new Promise((r) => setTimeout(r, this.timing.settleMs));
        await client.completeChallenge(challenge);
        await client.waitForValidStatus(challenge);
        await cleanup();
        cleanup = undefined;
      }
      const [keyPem, csr] = await acme.crypto.createCsr({ altNames: [row.name] });
      const finalized = await client.finalizeOrder(order, csr);
      const chain = await client.getCertificate(finalized);
      await this.store(row, attemptId, chain, keyPem.toString());
    } catch (error) {
      await cleanup?.().catch(() => {});
      const now = new Date(this.clock());
      const next = new Date(now.getTime() + retryDelay(row.failures + 1, this.timing));
      const reason = reasonOf(error);
      await this.repo.failed(row.id, attemptId, reason, next, now);
      this.changes.bump();
      await this.onFailure(row, reason, now).catch((e: unknown) => this.onError(e));
    }
  }

  /** The token goes to every node carrying the domain (its snapshot's `acmeChallenges`). */
  private async publishHttp(row: ClaimedCertificate, token: string, keyAuthorization: string) {
    await this.repo.clearChallenges(row.id);
    await this.repo.putChallenge({
      autoCertificateId: row.id,
      domainId: row.domainId,
      host: row.name,
      token,
      keyAuthorization,
    });
    this.changes.bump();
    return async () => {
      await this.repo.clearChallenges(row.id);
      this.changes.bump();
    };
  }

  /** `_acme-challenge.<name>` TXT through the operator's DNS provider (the name must be in its zone). */
  private async publishDns(row: ClaimedCertificate, identifier: string, keyAuthorization: string) {
    const provider = await this.dnsSettings.providerOf(row.operatorId);
    const name = canonicalName(`_acme-challenge.${identifier.replace(/^\*\./, '')}`);
    await provider.applyChanges([{ kind: 'upsert', set: recordSet(name, 'TXT', 60, [keyAuthorization]) }]);
    return async () => {
      await provider.applyChanges([{ kind: 'delete', name, type: 'TXT', line: 'default' }]);
    };
  }

  /** The certificate becomes the domain's: a new row the first time, the same row replaced on renewal. */
  private async store(row: ClaimedCertificate, attemptId: number, chain: string, keyPem: string): Promise<void> {
    const now = new Date(this.clock());
    const parsed = parseCertificate(chain, keyPem, now);
    const columns = certificateColumns(parsed, this.box);
    await this.transactions.run(async () => {
      let certificateId = row.certificateId;
      if (certificateId === null || !(await this.certificates.update(row.siteId, certificateId, columns))) {
        certificateId = await this.certificates.insert({
          siteId: row.siteId,
          name: `auto-ssl ${row.name}`.slice(0, 64),
          memo: 'automatic certificate',
          ...columns,
        });
      }
      await this.certificates.assign(row.siteId, [row.domainId], certificateId);
      const renewAt = parsed.notAfter.getTime() - AUTO_CERT_RENEW_DAYS * DAY_MS;
      // A certificate shorter-lived than the renewal window is renewed at two thirds of its life.
      const fallback = now.getTime() + ((parsed.notAfter.getTime() - now.getTime()) * 2) / 3;
      await this.repo.succeeded(
        row.id,
        attemptId,
        {
          certificateId,
          notAfter: parsed.notAfter,
          nextAttemptAt: new Date(renewAt > now.getTime() ? renewAt : fallback),
        },
        now,
      );
    });
    this.changes.bump();
  }
}
