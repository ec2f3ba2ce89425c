import { nodeCommandRoutes, nodeOperationRoutes as ops } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
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
  const operator = (caller: Caller | null) => nodes.operatorOf(requireCaller(caller).accountId);
  const done = { data: true as const };

  binder.bind(nodeCommandRoutes.getNodeCommands, async ({ query }, { node, reply }) => {
    if (!node) throw new Error('node route without a node');
    // As the snapshot poll: a node that hangs up ends its wait at once.
    const hangUp = new AbortController();
    const onClose = () => hangUp.abort();
    reply.raw.once('close', onClose);
    try {
      return { data: await commands.poll(node.nodeId, query.wait, hangUp.signal) };
    } finally {
      reply.raw.off('close', onClose);
    }
  });
  binder.bind(nodeCommandRoutes.reportNodeCommandResult, async ({ params, body }, { node }) => {
    if (!node) throw new Error('node route without a node');
    await commands.report(node.nodeId, params.id, body);
    return done;
  });

  binder.bind(ops.rebootZoneNodes, async ({ params, body }, { caller }) => ({
    data: await commands.queue(await operator(caller), body.ids, 'reboot', params.zoneID),
  }));
  binder.bind(ops.resetZoneNodes, async ({ params, body }, { caller }) => ({
    data: await commands.queue(await operator(caller), body.ids, 'reset', params.zoneID),
  }));
  binder.bind(ops.rotateNodeLogs, async ({ body }, { caller }) => ({
    data: await commands.queue(await operator(caller), body.ids, 'logRotate'),
  }));
  binder.bind(ops.listNodeCommands, async ({ params, query }, { caller }) => {
    const operatorId = await operator(caller);
    await settings.node(operatorId, params.zoneID, params.id);
    return commands.list(operatorId, params.id, query.page, query.pageSize);
  });

  binder.bind(ops.setNodeLogRotateTime, async ({ body }, { caller }) => {
    await settings.setLogRotateTime(await operator(caller), body.ids, body.time);
    return done;
  });
  binder.bind(ops.setNodeStatus, async ({ body }, { caller }) => {
    await settings.setStatus(await operator(caller), body.ids, body.status);
    return done;
  });
  binder.bind(ops.setNodeMemo, async ({ body }, { caller }) => {
    await settings.setMemo(await operator(caller), body.ids, body.memo);
    return done;
  });
  binder.bind(ops.setNodeMonitor, async ({ body }, { caller }) => {
    await settings.setMonitor(await operator(caller), body.ids, body.monitor);
    return done;
  });
  binder.bind(ops.setNodePortType, async ({ body }, { caller }) => {
    await settings.setPortType(await operator(caller), body.ids, body.portType);
    return done;
  });
  binder.bind(ops.getNodeSystem, async ({ params }, { caller }) => ({
    data: await settings.system(await operator(caller), params.zoneID, params.id),
  }));

  binder.bind(ops.listZoneNodes, async ({ params, query }, { caller }) => {
    const operatorId = await operator(caller);
    await settings.zone(operatorId, params.zoneID);
    return nodes.listInitialized(operatorId, { ...query, zoneIDs: [params.zoneID] }, (id) => snapshots.state(id));
  });
  binder.bind(ops.metaZoneNodes, async ({ params }, { caller }) => ({
    data: await settings.metaInZone(await operator(caller), params.zoneID),
  }));
  binder.bind(ops.renameZoneNode, async ({ params, body }, { caller }) => {
    await settings.rename(await operator(caller), params.zoneID, body.id, body.name);
    return done;
  });
  binder.bind(ops.removeZoneNode, async ({ params, body }, { caller }) => {
    await settings.remove(await operator(caller), params.zoneID, body.id);
    return done;
  });
}
