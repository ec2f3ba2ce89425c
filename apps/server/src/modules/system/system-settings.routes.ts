import { systemSettingRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { SystemSettingsService } from './system-settings.service.js';

export function bindSystemSettingRoutes(binder: Binder, settings: SystemSettingsService): void {
  const r = systemSettingRoutes;
  binder.bind(r.getOutgoingUrlSetting, async (_i, { caller }) => ({
    data: await settings.outgoingUrls(caller.operatorId),
  }));
  binder.bind(r.saveOutgoingUrlSetting, async ({ body }, { caller }) => ({
    data: await settings.saveOutgoingUrls(caller.operatorId, body),
  }));
  binder.bind(r.getAccountVerifySetting, async (_i, { caller }) => ({
    data: await settings.accountVerify(caller.operatorId),
  }));
  binder.bind(r.saveAccountVerifySetting, async ({ body }, { caller }) => ({
    data: await settings.saveAccountVerify(caller, body),
  }));
  binder.bind(r.getRestrictCidrsSetting, async (_i, { caller }) => ({
    data: await settings.restrictCidrs(caller.operatorId),
  }));
  binder.bind(r.saveRestrictCidrsSetting, async ({ body }, { caller, request }) => ({
    data: await settings.saveRestrictCidrs(caller.operatorId, body, request.ip),
  }));
  binder.bind(r.getOperatorErrorPages, async (_i, { caller }) => ({
    data: await settings.errorPages(caller.operatorId),
  }));
  binder.bind(r.saveOperatorErrorPages, async ({ body }, { caller }) => ({
    data: await settings.saveErrorPages(caller.operatorId, body),
  }));
  binder.bind(r.getPerdefinedSetting, async (_i, { caller }) => ({
    data: await settings.perdefined(caller.operatorId),
  }));
  binder.bind(r.savePerdefinedSetting, async ({ body }, { caller }) => ({
    data: await settings.savePerdefined(caller.operatorId, body),
  }));
}
