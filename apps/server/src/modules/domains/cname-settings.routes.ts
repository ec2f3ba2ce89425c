import { cnameSettingRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { CnameSettingsService } from './cname-settings.service.js';

export function bindCnameSettingRoutes(binder: Binder, service: CnameSettingsService): void {
  binder.bind(cnameSettingRoutes.getCnameSetting, async (_i, { caller }) => ({
    data: await service.get(caller.operatorId),
  }));
  binder.bind(cnameSettingRoutes.putCnameSetting, async ({ body }, { caller }) => ({
    data: await service.put(caller.operatorId, body.domain),
  }));
}
