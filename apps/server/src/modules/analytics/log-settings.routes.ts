import { logSettingRoutes as r } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { LogSettingsService } from './log-settings.service.js';

/** The log setting: retention of the analytics store, and its parts by table and UTC day. */
export function bindLogSettingRoutes(binder: Binder, service: LogSettingsService): void {
  binder.bind(r.getLogSetting, async (_input, { caller }) => ({ data: await service.get(caller) }));
  binder.bind(r.putLogSetting, async ({ body }, { caller }) => ({ data: await service.put(caller, body) }));
  binder.bind(r.getLogExportSetting, async (_input, { caller }) => ({ data: await service.getExport(caller) }));
  binder.bind(r.putLogExportSetting, async ({ body }, { caller }) => ({ data: await service.putExport(caller, body) }));
  binder.bind(r.listLogParts, async ({ query }, { caller }) => service.parts(caller, query));
  binder.bind(r.deleteLogPart, async ({ body }, { caller }) => {
    await service.drop(caller, [body]);
  });
  binder.bind(r.deleteLogParts, async ({ body }, { caller }) => {
    await service.drop(caller, body.items);
  });
}
