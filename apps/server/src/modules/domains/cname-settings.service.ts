import { isIP } from 'node:net';
import { type CnameSetting, cnameSettingRoutes } from '@rampart/contract';
import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../platform/db/database.js';
import { domains, sites } from '../../platform/db/schema.js';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import type { NodesService } from '../nodes/nodes.service.js';
import { SettingsRepository } from '../system/settings.repository.js';

/** Used when PUBLIC_URL names no DNS domain: reserved (RFC 2606), so no check passes by accident. */
export const FALLBACK_CNAME_DOMAIN = 'cname.rampart.invalid';

/** `cname.<host of PUBLIC_URL>` when that host is a DNS name with a dot, else FALLBACK_CNAME_DOMAIN. */
export function defaultCnameDomain(publicUrl: string | undefined): string {
  if (!publicUrl) return FALLBACK_CNAME_DOMAIN;
  let host: string;
  try {
    host = new URL(publicUrl).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return FALLBACK_CNAME_DOMAIN;
  }
  if (host === '' || isIP(host.replace(/^\[|\]$/g, '')) !== 0 || !host.includes('.')) return FALLBACK_CNAME_DOMAIN;
  return `cname.${host}`;
}

const storedSchema = z.object({ domain: z.string().min(1) });
const keyOf = (operatorId: number) => `cnameDomain:${operatorId}`;

/** The operator's CNAME domain (contract: cname-settings.ts), kept per operator in the settings table. */
export class CnameSettingsService {
  constructor(
    private readonly db: Db,
    private readonly fallback: string,
  ) {}

  private async stored(db: Db, operatorId: number): Promise<string | null> {
    const parsed = storedSchema.safeParse(await new SettingsRepository(db).get(keyOf(operatorId)));
    return parsed.success ? parsed.data.domain : null;
  }

  async get(operatorId: number, db: Db = this.db): Promise<CnameSetting> {
    const own = await this.stored(db, operatorId);
    return { domain: own ?? this.fallback, defaultDomain: this.fallback, custom: own !== null };
  }

  /** The CNAME domain in use for the operator's sites. */
  async domainOf(operatorId: number, db: Db = this.db): Promise<string> {
    return (await this.get(operatorId, db)).domain;
  }

  /** Sets (or with '' clears: stored as {}) the operator's domain; a change resets its domains' CNAME statuses. */
  async put(operatorId: number, domain: string): Promise<CnameSetting> {
    return this.db.transaction(async (tx) => {
      const settings = new SettingsRepository(tx);
      await settings.lock(keyOf(operatorId));
      const before = await this.get(operatorId, tx);
      await settings.put(keyOf(operatorId), domain === '' ? {} : { domain });
      const after = await this.get(operatorId, tx);
      if (after.domain !== before.domain) {
        const owned = tx.select({ id: sites.id }).from(sites).where(eq(sites.ownerId, operatorId));
        await tx.update(domains).set({ cnameStatus: 0, cnameCheckedAt: null }).where(inArray(domains.siteId, owned));
      }
      return after;
    });
  }
}

export function bindCnameSettingRoutes(binder: Binder, service: CnameSettingsService, nodes: NodesService): void {
  const operator = (caller: Caller | null) => nodes.operatorOf(requireCaller(caller).accountId);
  binder.bind(cnameSettingRoutes.getCnameSetting, async (_i, { caller }) => ({
    data: await service.get(await operator(caller)),
  }));
  binder.bind(cnameSettingRoutes.putCnameSetting, async ({ body }, { caller }) => ({
    data: await service.put(await operator(caller), body.domain),
  }));
}
