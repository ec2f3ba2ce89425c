import { LICENSE_KINDS, type LicenseInfo, type LicenseKind } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { LicensesRepository } from './licenses.repository.js';

const DAY_MS = 86_400_000;

/** The catalogue code of going over each kind's limit, with the extra it carries. */
function overLimit(kind: LicenseKind, limit: number): AppError {
  switch (kind) {
    case 'nodes':
      return new AppError(202002, { extra: { limit } });
    case 'sites':
      return new AppError(205001, { extra: { limit } });
    case 'domains':
      return new AppError(401002, { extra: { scope: 'license', limit } });
    case 'autoSSLDomains':
      return new AppError(401004, { extra: { limit } });
    case 'ports':
      return new AppError(401007, { extra: { max: limit } });
    case 'zones':
      return new AppError(201003, { extra: { limit } });
  }
}

/**
 * The operator's licence where objects are made: `check` runs inside the creating call's
 * transaction, locks the operator (so of two requests racing for the last place exactly one wins),
 * and refuses with 101019 after the licence's expiry or the kind's code past its limit. An operator
 * without a licence is not limited (docs/decisions.md "Licences").
 */
export class LicenseLimits {
  constructor(
    private readonly licenses: LicensesRepository,
    private readonly clock: Clock,
  ) {}

  async check(operatorId: number, kind: LicenseKind, adding = 1): Promise<void> {
    if (adding <= 0) return;
    await this.licenses.lockOperator(operatorId);
    const license = await this.licenses.current(operatorId);
    if (!license) return;
    if (license.expiresAt.getTime() <= this.clock()) throw new AppError(101019);
    const limit = license.settings[kind];
    if ((await this.licenses.used(operatorId, kind)) + adding > limit) throw overLimit(kind, limit);
  }

  /** The operator's licence as it applies now, with what is used and left of each kind. */
  async info(operatorId: number, installID: string): Promise<Omit<LicenseInfo, 'operator'>> {
    const license = await this.licenses.current(operatorId);
    const usage: Partial<LicenseInfo['usage']> = {};
    for (const kind of LICENSE_KINDS) {
      const used = await this.licenses.used(operatorId, kind);
      // -1: no licence, nothing limited.
      const limit = license ? license.settings[kind] : -1;
      usage[kind] = { used, limit, left: license ? Math.max(0, limit - used) : -1 };
    }
    const msLeft = license ? license.expiresAt.getTime() - this.clock() : null;
    return {
      source: license?.source ?? 'none',
      licenseSetting: license?.settings ?? null,
      expired: msLeft !== null && msLeft <= 0,
      daysLeft: msLeft === null ? null : Math.floor(msLeft / DAY_MS),
      usage: usage as LicenseInfo['usage'],
      installID,
      key: license?.source === 'offline' ? license.key : null,
    };
  }
}
