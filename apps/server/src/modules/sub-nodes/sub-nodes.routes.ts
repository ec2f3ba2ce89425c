import { subNodeRoutes as routes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { SubNodesService } from './sub-nodes.service.js';

export function bindSubNodeRoutes(binder: Binder, subs: SubNodesService): void {
  binder.bind(routes.listSubNodes, async ({ params }, { caller }) => ({
    data: await subs.list(caller.operatorId, params.zoneID, params.id),
  }));
  binder.bind(routes.createSubNodes, async ({ params, body }, { caller }) => ({
    data: await subs.create(caller.operatorId, params.zoneID, params.id, body.ips, body.memo),
  }));
  binder.bind(routes.deleteSubNodes, async ({ params, body }, { caller }) => {
    await subs.remove(caller.operatorId, params.zoneID, params.id, body.ids);
  });
  binder.bind(routes.updateSubNodeIp, async ({ params, body }, { caller }) => ({
    data: await subs.updateIp(caller.operatorId, params.zoneID, params.id, body),
  }));
}
