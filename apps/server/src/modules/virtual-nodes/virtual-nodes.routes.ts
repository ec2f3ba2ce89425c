import { virtualNodeRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { VirtualNodesService } from './virtual-nodes.service.js';

export function bindVirtualNodeRoutes(binder: Binder, virtualNodes: VirtualNodesService): void {
  const r = virtualNodeRoutes;
  binder.bind(r.listVirtualNodes, async ({ params, query }, { caller }) =>
    virtualNodes.list(caller.operatorId, params.zoneID, query.value, query.page, query.pageSize),
  );
  binder.bind(r.createVirtualNode, async ({ params, body }, { caller }) => ({
    data: await virtualNodes.create(caller.operatorId, params.zoneID, body),
  }));
  binder.bind(r.updateVirtualNode, async ({ params, body }, { caller }) => ({
    data: await virtualNodes.update(caller.operatorId, params.zoneID, body),
  }));
  binder.bind(r.deleteVirtualNodes, async ({ params, body }, { caller }) => {
    await virtualNodes.delete(caller.operatorId, params.zoneID, body.ids);
  });
  binder.bind(r.listVirtualNodeRecords, async ({ params, query }, { caller }) =>
    virtualNodes.records(caller.operatorId, params.zoneID, params.id, query.page, query.pageSize),
  );
  binder.bind(r.addVirtualNodeCname, async ({ params, body }, { caller }) => ({
    data: await virtualNodes.addCname(caller.operatorId, params.zoneID, params.id, body.value),
  }));
  binder.bind(r.addVirtualNodeNodeRecords, async ({ params, body }, { caller }) => {
    await virtualNodes.addNodeRecords(caller.operatorId, params.zoneID, params.id, body.nodeIDs);
  });
  binder.bind(r.deleteVirtualNodeRecords, async ({ params, body }, { caller }) => {
    await virtualNodes.deleteRecords(caller.operatorId, params.zoneID, params.id, body.ids);
  });
}
