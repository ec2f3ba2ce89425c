import { dnsSettingRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { DnsSettingsService } from './dns-settings.service.js';

export function bindDnsSettingRoutes(binder: Binder, service: DnsSettingsService): void {
  binder.bind(dnsSettingRoutes.getDnsSetting, async (_i, { caller }) => ({
    data: await service.get(caller.operatorId),
  }));
  binder.bind(dnsSettingRoutes.saveDnsSetting, async ({ body }, { caller }) => ({
    data: await service.save(caller.operatorId, body),
  }));
  binder.bind(dnsSettingRoutes.deleteDnsSetting, async (_i, { caller }) => {
    await service.delete(caller.operatorId);
    return { data: null };
  });
  binder.bind(dnsSettingRoutes.testDnsSetting, async ({ body }, { caller }) => ({
    data: await service.test(caller.operatorId, body),
  }));
}
