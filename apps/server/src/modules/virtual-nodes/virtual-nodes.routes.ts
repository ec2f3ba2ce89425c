import { virtualNodeRoutes } from '@rampart/contract';
import type { Binder, ClientCaller } from '../../platform/http/bind-route.js';
import type { VirtualNodesService } from './virtual-nodes.service.js';

export function bindVirtualNodeRoutes(binder: Binder, virtualNodes: VirtualNodesService): void {
  const scope = (caller: ClientCaller, zoneId: number) => ({ operatorId: caller.operatorId, zoneId });
  const r = virtualNodeRoutes;
  binder.bind(r.listVirtualNodes, async ({ params, query }, { caller }) =>
    virtualNodes.list(scope(caller, params.zoneID), query.value, query.page, query.pageSize),
  );
  binder.bind(r.createVirtualNode, async ({ params, body }, { caller }) => ({
    data: await virtualNodes.create(scope(caller, params.zoneID), body),
  }));
  binder.bind(r.updateVirtualNode, async ({ params, body }, { caller }) => ({
    data: await virtualNodes.update(scope(caller, params.zoneID), body),
  }));
  binder.bind(r.deleteVirtualNodes, async ({ params, body }, { caller }) => {
    await virtualNodes.delete(scope(caller, params.zoneID), body.ids);
  });
  binder.bind(r.listVirtualNodeRecords, async ({ params, query }, { caller }) =>
    virtualNodes.records(scope(caller, params.zoneID), params.id, query.page, query.pageSize),
  );
  binder.bind(r.addVirtualNodeCname, async ({ params, body }, { caller }) => ({
    data: await virtualNodes.addCname(scope(caller, params.zoneID), params.id, body.value),
  }));
  binder.bind(r.addVirtualNodeNodeRecords, async ({ params, body }, { caller }) => {
    await virtualNodes.addNodeRecords(scope(caller, params.zoneID), params.id, body.nodeIDs);
  });
  binder.bind(r.deleteVirtualNodeRecords, async ({ params, body }, { caller }) => {
    await virtualNodes.deleteRecords(scope(caller, params.zoneID), params.id, body.ids);
  });
}
