import {
  type ErrorPage,
  type ErrorPageIn,
  type ErrorPages,
  type GzipSetting,
  type GzipSettingIn,
  RATE_RULES_PER_SITE,
  type RateRule,
  type RateRuleIn,
} from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import type { SiteAccessRepository } from '../../platform/tenancy/site-access.repository.js';
import { presentGzip, presentPage, presentRate } from './site-settings.presenter.js';
import type { SiteSettingsRepository, SiteSettingsRow } from './site-settings.repository.js';

/**
 * Compression, rate limits and error pages of a customer's site (routes/site-settings.ts). Every
 * call starts with the site check (101018 for a site that is not the caller's); the snapshot hook
 * in app.ts sends a change to the nodes.
 */
export class SiteSettingsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repo: SiteSettingsRepository,
    private readonly sites: SiteAccessRepository,
    private readonly access: SiteAccess,
  ) {}

  async gzip(userId: number, siteId: number): Promise<GzipSetting> {
    await this.access.userSite(userId, siteId);
    return presentGzip(await this.repo.settings(siteId));
  }

  async setGzip(userId: number, siteId: number, input: GzipSettingIn): Promise<GzipSetting> {
    await this.access.userSite(userId, siteId);
    const row = await this.repo.upsertSettings(siteId, {
      gzipEnabled: input.enabled,
      gzipTypes: input.types,
      gzipMinLength: input.minLength,
      gzipUpdatedAt: new Date(),
    });
    return presentGzip(row);
  }

  async rates(userId: number, siteId: number): Promise<RateRule[]> {
    await this.access.userSite(userId, siteId);
    return (await this.repo.rateRules(siteId)).map(presentRate);
  }

  async addRates(userId: number, siteId: number, inputs: RateRuleIn[]): Promise<RateRule[]> {
    await this.access.userSite(userId, siteId);
    return this.transactions.run(async () => {
      // The site row stays locked until the transaction ends: concurrent adds count in turn.
      await this.sites.lock(siteId);
      if ((await this.repo.countRateRules(siteId)) + inputs.length > RATE_RULES_PER_SITE) {
        throw new AppError(101029, { extra: { max: RATE_RULES_PER_SITE } });
      }
      return (await this.repo.insertRateRules(siteId, inputs)).map(presentRate);
    });
  }

  async updateRate(userId: number, siteId: number, ruleId: number, input: RateRuleIn): Promise<RateRule> {
    await this.access.userSite(userId, siteId);
    const row = await this.repo.updateRateRule(siteId, ruleId, input);
    if (!row) throw new AppError(101018);
    return presentRate(row);
  }

  /** All or none: an id that is not a rule of this site refuses the whole call (101018). */
  async deleteRates(userId: number, siteId: number, ids: number[]): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      const deleted = await this.repo.deleteRateRules(siteId, unique);
      requireEvery(deleted, unique);
    });
  }

  async errorPages(userId: number, siteId: number): Promise<ErrorPages> {
    await this.access.userSite(userId, siteId);
    const [settings, pages] = await Promise.all([this.repo.settings(siteId), this.repo.errorPages(siteId)]);
    return { language: settings?.errorPageLanguage ?? 'en_US', pages: pages.map(presentPage) };
  }

  async setErrorPage(userId: number, siteId: number, input: ErrorPageIn): Promise<ErrorPage> {
    await this.access.userSite(userId, siteId);
    return presentPage(await this.repo.upsertErrorPage(siteId, input.status, input.body));
  }

  /** All or none: a status without a page refuses the whole call (101018). */
  async deleteErrorPages(userId: number, siteId: number, statuses: number[]): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(statuses)];
    await this.transactions.run(async () => {
      const deleted = await this.repo.deleteErrorPages(siteId, unique);
      requireEvery(deleted, unique);
    });
  }

  async setLanguage(
    userId: number,
    siteId: number,
    language: SiteSettingsRow['errorPageLanguage'],
  ): Promise<{ language: SiteSettingsRow['errorPageLanguage'] }> {
    await this.access.userSite(userId, siteId);
    const row = await this.repo.upsertSettings(siteId, { errorPageLanguage: language });
    return { language: row.errorPageLanguage };
  }
}
