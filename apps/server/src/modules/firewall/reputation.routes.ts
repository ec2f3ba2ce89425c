import { abuseIPRoutes as a, firewallReputationRoutes as r } from '@rampart/contract';
import { AppError } from '../../platform/errors/app-error.js';
import type { Binder } from '../../platform/http/bind-route.js';
import type { AbuseIPSettingService, AbuseIPsService } from './reputation.service.js';

/** The operator's reputation list (console and node API) and its sites' IP trust protection setting. */
export function bindReputationRoutes(binder: Binder, list: AbuseIPsService, setting: AbuseIPSettingService): void {
  binder.bind(a.listAbuseIPs, async ({ query }, { caller }) => list.list(caller.operatorId, query));
  binder.bind(a.addAbuseIPs, async ({ body }, { caller }) => ({ data: await list.add(caller.operatorId, body.data) }));
  binder.bind(a.updateAbuseIP, async ({ body: { id, ...entry } }, { caller }) => ({
    data: await list.update(caller.operatorId, id, entry),
  }));
  binder.bind(a.deleteAbuseIPs, async ({ body }, { caller }) => {
    await list.delete(caller.operatorId, body.ids);
  });
  binder.bind(a.importAbuseIPs, async ({ body }, { caller }) => ({ data: await list.import(caller.operatorId, body) }));
  binder.bind(a.getNodeAbuseIPs, async ({ query }, { node, reply }) => {
    const bytes = await list.file(node.ownerId, query.sha256);
    if (!bytes) throw new AppError(101018);
    reply.header('cache-control', 'no-store').type('application/octet-stream').send(bytes);
    return '';
  });
  binder.bind(r.getAbuseIPSetting, async ({ params }, { caller }) => ({
    data: await setting.get(caller.accountId, params.siteId),
  }));
  binder.bind(r.updateAbuseIPSetting, async ({ params, body }, { caller }) => ({
    data: await setting.update(caller.accountId, params.siteId, body),
  }));
}
