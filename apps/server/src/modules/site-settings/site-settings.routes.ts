import { siteSettingRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { SiteSettingsService } from './site-settings.service.js';

export function bindSiteSettingRoutes(binder: Binder, settings: SiteSettingsService): void {
  const r = siteSettingRoutes;
  binder.bind(r.getGzipSetting, async ({ params }, { caller }) => ({
    data: await settings.gzip(caller.accountId, params.siteId),
  }));
  binder.bind(r.setGzipSetting, async ({ params, body }, { caller }) => ({
    data: await settings.setGzip(caller.accountId, params.siteId, body),
  }));
  binder.bind(r.listRateRules, async ({ params }, { caller }) => ({
    data: await settings.rates(caller.accountId, params.siteId),
  }));
  binder.bind(r.addRateRules, async ({ params, body }, { caller }) => ({
    data: await settings.addRates(caller.accountId, params.siteId, body.data),
  }));
  binder.bind(r.updateRateRule, async ({ params, body }, { caller }) => ({
    data: await settings.updateRate(caller.accountId, params.siteId, params.ruleId, body),
  }));
  binder.bind(r.deleteRateRules, async ({ params, body }, { caller }) => {
    await settings.deleteRates(caller.accountId, params.siteId, body.ids);
  });
  binder.bind(r.getErrorPages, async ({ params }, { caller }) => ({
    data: await settings.errorPages(caller.accountId, params.siteId),
  }));
  binder.bind(r.setErrorPage, async ({ params, body }, { caller }) => ({
    data: await settings.setErrorPage(caller.accountId, params.siteId, body),
  }));
  binder.bind(r.deleteErrorPages, async ({ params, body }, { caller }) => {
    await settings.deleteErrorPages(caller.accountId, params.siteId, body.statuses);
  });
  binder.bind(r.setErrorPageLanguage, async ({ params, body }, { caller }) => ({
    data: await settings.setLanguage(caller.accountId, params.siteId, body.language),
  }));
}
