import { privateOriginsRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { PrivateOriginsService } from './private-origins.service.js';

export function bindPrivateOriginsRoutes(binder: Binder, service: PrivateOriginsService): void {
  binder.bind(privateOriginsRoutes.getPrivateOriginsSetting, async (_i, { caller }) => ({
    data: await service.setting(caller.operatorId),
  }));
  binder.bind(privateOriginsRoutes.putPrivateOriginsSetting, async ({ body }, { caller }) => ({
    data: await service.putSetting(caller.operatorId, body.allowed),
  }));
}
