import { notificationRoutes as r } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { NotifySettingsService } from './notify-settings.service.js';

/**
 * The notification settings' calls. A customer's setting is its own account's: a sub-user reads
 * and changes the setting of the customer above it (`customerOf`).
 */
export function bindNotifySettingRoutes(
  binder: Binder,
  service: NotifySettingsService,
  customerOf: (accountId: number) => Promise<number>,
): void {
  binder.bind(r.getEmailSetting, async (_i, { caller }) => ({ data: await service.getEmail(caller.operatorId) }));
  binder.bind(r.saveEmailSetting, async ({ body }, { caller }) => ({
    data: await service.saveEmail(caller.operatorId, body),
  }));
  binder.bind(r.testEmailSetting, async ({ body }, { caller }) => ({
    data: await service.testEmail(caller.operatorId, body),
  }));
  binder.bind(r.getTgSetting, async (_i, { caller }) => ({ data: await service.getTg(caller.operatorId) }));
  binder.bind(r.saveTgSetting, async ({ body }, { caller }) => ({
    data: await service.saveTg(caller.operatorId, body),
  }));
  binder.bind(r.testTgSetting, async ({ body }, { caller }) => ({
    data: await service.testTg(caller.operatorId, body),
  }));
  binder.bind(r.getOperatorNotify, async (_i, { caller }) => ({
    data: await service.operatorNotify(caller.operatorId),
  }));
  binder.bind(r.saveOperatorNotify, async ({ body }, { caller }) => ({
    data: await service.saveOperatorNotify(caller.operatorId, body),
  }));
  binder.bind(r.getFrequencySetting, async (_i, { caller }) => ({
    data: await service.frequency(caller.operatorId),
  }));
  binder.bind(r.saveFrequencySetting, async ({ body }, { caller }) => ({
    data: await service.saveFrequency(caller.operatorId, body),
  }));
  binder.bind(r.getCustomerNotify, async (_i, { caller }) => ({
    data: await service.customerNotify(await customerOf(caller.accountId)),
  }));
  binder.bind(r.saveCustomerNotify, async ({ body }, { caller }) => ({
    data: await service.saveCustomerNotify(await customerOf(caller.accountId), body),
  }));
}
