import { cnameSettingRoutes } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { CnameSettingsService } from './cname-settings.service.js';

export function bindCnameSettingRoutes(binder: Binder, service: CnameSettingsService, nodes: NodesService): void {
  const operator = (caller: Caller | null) => nodes.operatorOf(requireCaller(caller).accountId);
  binder.bind(cnameSettingRoutes.getCnameSetting, async (_i, { caller }) => ({
    data: await service.get(await operator(caller)),
  }));
  binder.bind(cnameSettingRoutes.putCnameSetting, async ({ body }, { caller }) => ({
    data: await service.put(await operator(caller), body.domain),
  }));
}
