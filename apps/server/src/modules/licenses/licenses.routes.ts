import { licenseRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { LicensesService } from './licenses.service.js';

export function bindLicenseRoutes(binder: Binder, service: LicensesService): void {
  const r = licenseRoutes;
  binder.bind(r.listLicenses, async ({ query }) => service.list(query));
  binder.bind(r.createLicense, async ({ body }) => ({ data: await service.create(body.userID, body.licenseSetting) }));
  binder.bind(r.updateLicense, async ({ body }) => ({ data: await service.update(body.id, body.licenseSetting) }));
  binder.bind(r.deleteLicenses, async ({ body }) => {
    await service.delete(body.ids);
  });
  binder.bind(r.issueLicense, async ({ body }) => ({ data: await service.issue(body.id) }));
  binder.bind(r.getLicenseOrder, async ({ params }) => ({ data: await service.order(params.userId) }));
  binder.bind(r.putLicenseOrder, async ({ params, body }) => ({
    data: await service.putOrder(params.userId, body.licenseSetting),
  }));
  binder.bind(r.listOfflineLicenses, async ({ query }) => service.listOffline(query));
  binder.bind(r.putOfflineLicense, async ({ body }, { caller }) => ({
    data: await service.putOffline(caller.accountId, body),
  }));
  binder.bind(r.deleteOfflineLicenses, async ({ body }) => {
    await service.deleteOffline(body.ids);
  });
  binder.bind(r.issueOfflineLicense, async ({ body }) => ({ data: await service.issueOffline(body.id) }));
  binder.bind(r.unregisterOfflineLicense, async ({ body }) => ({ data: await service.unregisterOffline(body.id) }));
  binder.bind(r.getOwnLicense, async (_input, { caller }) => ({ data: await service.own(caller.operatorId) }));
  binder.bind(r.activateOfflineLicense, async ({ query }, { caller }) => ({
    data: await service.activate(caller.operatorId, query.key),
  }));
  binder.bind(r.updateOfflineLicenseKey, async ({ query }, { caller }) => ({
    data: await service.updateKey(caller.operatorId, query.key),
  }));
}
