import { nodeCommandRoutes, nodeOperationRoutes as ops } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import { whileConnected } from '../../platform/http/held-poll.js';
import type { SnapshotsService } from '../snapshots/snapshots.service.js';
import type { NodeCommandsService } from './node-commands.service.js';
import type { NodeSettingsService } from './node-settings.service.js';
import type { NodesService } from './nodes.service.js';

/** The command channel (node API) and the operator's node operations. */
export function bindNodeOperationRoutes(
  binder: Binder,
  nodes: NodesService,
  commands: NodeCommandsService,
  settings: NodeSettingsService,
  snapshots: SnapshotsService,
): void {
  binder.bind(nodeCommandRoutes.getNodeCommands, async ({ query }, { node, reply }) => {
    return { data: await whileConnected(reply, (hangUp) => commands.poll(node.nodeId, query.wait, hangUp)) };
  });
  binder.bind(nodeCommandRoutes.reportNodeCommandResult, async ({ params, body }, { node }) => {
    await commands.report(node.nodeId, params.id, body);
  });

  binder.bind(ops.rebootZoneNodes, async ({ params, body }, { caller }) => ({
    data: await commands.queue(caller.operatorId, body.ids, 'reboot', params.zoneID),
  }));
  binder.bind(ops.resetZoneNodes, async ({ params, body }, { caller }) => ({
    data: await commands.queue(caller.operatorId, body.ids, 'reset', params.zoneID),
  }));
  binder.bind(ops.rotateNodeLogs, async ({ body }, { caller }) => ({
    data: await commands.queue(caller.operatorId, body.ids, 'logRotate'),
  }));
  binder.bind(ops.listNodeCommands, async ({ params, query }, { caller }) => {
    await settings.node(caller.operatorId, params.zoneID, params.id);
    return commands.list(caller.operatorId, params.id, query.page, query.pageSize);
  });

  binder.bind(ops.setNodeLogRotateTime, async ({ body }, { caller }) => {
    await settings.setLogRotateTime(caller.operatorId, body.ids, body.time);
  });
  binder.bind(ops.setNodeStatus, async ({ body }, { caller }) => {
    await settings.setStatus(caller.operatorId, body.ids, body.status);
  });
  binder.bind(ops.setNodeMemo, async ({ body }, { caller }) => {
    await settings.setMemo(caller.operatorId, body.ids, body.memo);
  });
  binder.bind(ops.setNodeMonitor, async ({ body }, { caller }) => {
    await settings.setMonitor(caller.operatorId, body.ids, body.monitor);
  });
  binder.bind(ops.setNodePortType, async ({ body }, { caller }) => {
    await settings.setPortType(caller.operatorId, body.ids, body.portType);
  });
  binder.bind(ops.getNodeSystem, async ({ params }, { caller }) => ({
    data: await settings.system(caller.operatorId, params.zoneID, params.id),
  }));

  binder.bind(ops.listZoneNodes, async ({ params, query }, { caller }) => {
    await settings.zone(caller.operatorId, params.zoneID);
    return nodes.listInitialized(caller, { ...query, zoneIDs: [params.zoneID] }, (id) => snapshots.state(id));
  });
  binder.bind(ops.metaZoneNodes, async ({ params }, { caller }) => ({
    data: await settings.metaInZone(caller.operatorId, params.zoneID),
  }));
  binder.bind(ops.renameZoneNode, async ({ params, body }, { caller }) => {
    await settings.rename(caller.operatorId, params.zoneID, body.id, body.name);
  });
  binder.bind(ops.removeZoneNode, async ({ params, body }, { caller }) => {
    await settings.remove(caller.operatorId, params.zoneID, body.id);
  });
}
