import { siteSettingRoutes } from '@rampart/contract';
import { type Binder, requireCaller } from '../../platform/http/bind-route.js';
import type { SiteSettingsService } from './site-settings.service.js';

export function bindSiteSettingRoutes(binder: Binder, settings: SiteSettingsService): void {
  const r = siteSettingRoutes;
  const user = (caller: Parameters<typeof requireCaller>[0]) => requireCaller(caller).accountId;
  binder.bind(r.getGzipSetting, async ({ params }, { caller }) => ({
    data: await settings.gzip(user(caller), params.siteId),
  }));
  binder.bind(r.setGzipSetting, async ({ params, body }, { caller }) => ({
    data: await settings.setGzip(user(caller), params.siteId, body),
  }));
  binder.bind(r.listRateRules, async ({ params }, { caller }) => ({
    data: await settings.rates(user(caller), params.siteId),
  }));
  binder.bind(r.addRateRules, async ({ params, body }, { caller }) => ({
    data: await settings.addRates(user(caller), params.siteId, body.data),
  }));
  binder.bind(r.updateRateRule, async ({ params, body }, { caller }) => ({
    data: await settings.updateRate(user(caller), params.siteId, params.ruleId, body),
  }));
  binder.bind(r.deleteRateRules, async ({ params, body }, { caller }) => {
    await settings.deleteRates(user(caller), params.siteId, body.ids);
    return { data: true as const };
  });
  binder.bind(r.getErrorPages, async ({ params }, { caller }) => ({
    data: await settings.errorPages(user(caller), params.siteId),
  }));
  binder.bind(r.setErrorPage, async ({ params, body }, { caller }) => ({
    data: await settings.setErrorPage(user(caller), params.siteId, body),
  }));
  binder.bind(r.deleteErrorPages, async ({ params, body }, { caller }) => {
    await settings.deleteErrorPages(user(caller), params.siteId, body.statuses);
    return { data: true as const };
  });
  binder.bind(r.setErrorPageLanguage, async ({ params, body }, { caller }) => ({
    data: await settings.setLanguage(user(caller), params.siteId, body.language),
  }));
}
