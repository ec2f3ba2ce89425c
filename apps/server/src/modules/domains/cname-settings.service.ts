import { isIP } from 'node:net';
import { type CnameSetting, PLACEHOLDER_CNAME_DOMAIN } from '@rampart/contract';
import { z } from 'zod';
import type { Transactions } from '../../platform/db/request-transaction.js';
import type { SettingsRepository } from '../../platform/settings/settings.repository.js';
import type { DomainsRepository } from './domains.repository.js';

/**
 * `cname.<host of PUBLIC_URL>` when that host is a DNS name with a dot, else the placeholder
 * (reserved by RFC 2606, so no check passes by accident, and the consoles say it is one).
 */
export function defaultCnameDomain(publicUrl: string | undefined): string {
  if (!publicUrl) return PLACEHOLDER_CNAME_DOMAIN;
  let host: string;
  try {
    host = new URL(publicUrl).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return PLACEHOLDER_CNAME_DOMAIN;
  }
  if (host === '' || isIP(host.replace(/^\[|\]$/g, '')) !== 0 || !host.includes('.')) return PLACEHOLDER_CNAME_DOMAIN;
  return `cname.${host}`;
}

const storedSchema = z.object({ domain: z.string().min(1) });
const keyOf = (operatorId: number) => `cnameDomain:${operatorId}`;

/** The operator's CNAME domain (contract: cname-settings.ts), kept per operator in the settings table. */
export class CnameSettingsService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly domains: DomainsRepository,
    private readonly transactions: Transactions,
    private readonly fallback: string,
  ) {}

  private async stored(operatorId: number): Promise<string | null> {
    const parsed = storedSchema.safeParse(await this.settings.get(keyOf(operatorId)));
    return parsed.success ? parsed.data.domain : null;
  }

  async get(operatorId: number): Promise<CnameSetting> {
    const own = await this.stored(operatorId);
    return { domain: own ?? this.fallback, defaultDomain: this.fallback, custom: own !== null };
  }

  /** The CNAME domain in use for the operator's sites. */
  async domainOf(operatorId: number): Promise<string> {
    return (await this.get(operatorId)).domain;
  }

  /** Sets (or with '' clears: stored as {}) the operator's domain; a change resets its domains' CNAME statuses. */
  async put(operatorId: number, domain: string): Promise<CnameSetting> {
    return this.transactions.run(async () => {
      await this.settings.lock(keyOf(operatorId));
      const before = await this.get(operatorId);
      await this.settings.put(keyOf(operatorId), domain === '' ? {} : { domain });
      const after = await this.get(operatorId);
      if (after.domain !== before.domain) await this.domains.resetCnameStatusOfOperator(operatorId);
      return after;
    });
  }
}
