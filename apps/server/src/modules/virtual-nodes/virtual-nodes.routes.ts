import { virtualNodeRoutes } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { VirtualNodesService } from './virtual-nodes.service.js';

export function bindVirtualNodeRoutes(binder: Binder, virtualNodes: VirtualNodesService, nodes: NodesService): void {
  const scope = async (caller: Caller | null, zoneId: number) => {
    return { operatorId: await nodes.operatorOf(requireCaller(caller).accountId), zoneId };
  };
  const ok = { data: true as const };
  const r = virtualNodeRoutes;
  binder.bind(r.listVirtualNodes, async ({ params, query }, { caller }) =>
    virtualNodes.list(await scope(caller, params.zoneID), query.value, query.page, query.pageSize),
  );
  binder.bind(r.createVirtualNode, async ({ params, body }, { caller }) => ({
    data: await virtualNodes.create(await scope(caller, params.zoneID), body),
  }));
  binder.bind(r.updateVirtualNode, async ({ params, body }, { caller }) => ({
    data: await virtualNodes.update(await scope(caller, params.zoneID), body),
  }));
  binder.bind(r.deleteVirtualNodes, async ({ params, body }, { caller }) => {
    await virtualNodes.delete(await scope(caller, params.zoneID), body.ids);
    return ok;
  });
  binder.bind(r.listVirtualNodeRecords, async ({ params, query }, { caller }) =>
    virtualNodes.records(await scope(caller, params.zoneID), params.id, query.page, query.pageSize),
  );
  binder.bind(r.addVirtualNodeCname, async ({ params, body }, { caller, request }) => ({
    data: await virtualNodes.addCname(
      await scope(caller, params.zoneID),
      params.id,
      body.value,
      requestLocale(request),
    ),
  }));
  binder.bind(r.addVirtualNodeNodeRecords, async ({ params, body }, { caller, request }) => {
    const s = await scope(caller, params.zoneID);
    await virtualNodes.addNodeRecords(s, params.id, body.nodeIDs, requestLocale(request));
    return ok;
  });
  binder.bind(r.deleteVirtualNodeRecords, async ({ params, body }, { caller }) => {
    await virtualNodes.deleteRecords(await scope(caller, params.zoneID), params.id, body.ids);
    return ok;
  });
}
