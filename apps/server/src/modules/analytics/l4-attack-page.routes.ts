import { l4AttackPageSettingRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { L4AttackPageSettings } from './l4-attack-page.setting.js';

export function bindL4AttackPageRoutes(binder: Binder, settings: L4AttackPageSettings): void {
  binder.bind(l4AttackPageSettingRoutes.getL4AttackPageSetting, async (_i, { caller }) => ({
    data: await settings.setting(caller.operatorId),
  }));
  binder.bind(l4AttackPageSettingRoutes.putL4AttackPageSetting, async ({ body }, { caller }) => ({
    data: await settings.putSetting(caller.operatorId, body.enabled),
  }));
}
