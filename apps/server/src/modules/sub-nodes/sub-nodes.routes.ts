import { subNodeRoutes as routes } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { SubNodesService } from './sub-nodes.service.js';

export function bindSubNodeRoutes(binder: Binder, subs: SubNodesService, nodes: NodesService): void {
  const operator = (caller: Caller | null) => nodes.operatorOf(requireCaller(caller).accountId);

  binder.bind(routes.listSubNodes, async ({ params }, { caller }) => ({
    data: await subs.list(await operator(caller), params.zoneID, params.id),
  }));
  binder.bind(routes.createSubNodes, async ({ params, body }, { caller }) => ({
    data: await subs.create(await operator(caller), params.zoneID, params.id, body.ips, body.memo),
  }));
  binder.bind(routes.deleteSubNodes, async ({ params, body }, { caller }) => {
    await subs.remove(await operator(caller), params.zoneID, params.id, body.ids);
    return { data: true as const };
  });
  binder.bind(routes.updateSubNodeIp, async ({ params, body }, { caller }) => ({
    data: await subs.updateIp(await operator(caller), params.zoneID, params.id, body),
  }));
}
