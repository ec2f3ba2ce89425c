import {
  EDGE_PLANE_STREAM_KEEPALIVE_SECONDS,
  EDGE_PLANE_STREAM_SECONDS,
  type NodeMonitorStatus,
  nodeRoutes,
} from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import { sendDataText, sendLines, whileConnected } from '../../platform/http/held-poll.js';
import type { PlaneService } from '../snapshots/plane.service.js';
import type { SnapshotsService } from '../snapshots/snapshots.service.js';
import { nodeInfoLines } from './join-commands.js';
import type { NodesService } from './nodes.service.js';

export function bindNodeRoutes(
  binder: Binder,
  nodes: NodesService,
  snapshots: SnapshotsService,
  planes: PlaneService,
  publicUrl: (origin: string) => string,
  /** Hears each status report's agent version (it ends a node's upgrade). */
  versionReported: (node: { nodeId: number; ownerId: number }, version: string) => Promise<void>,
  /** The monitoring state of nodes, shown in the initialised node list (monitoring module). */
  monitorStates?: (operatorId: number, nodeIds: number[]) => Promise<Map<number, NodeMonitorStatus>>,
): void {
  binder.bind(nodeRoutes.registerNode, async ({ body }) => ({ data: await nodes.register(body) }));
  binder.bind(nodeRoutes.getNodeSnapshot, async ({ query }, { node, reply }) => {
    const json = await whileConnected(reply, (hangUp) =>
      snapshots.poll(node.nodeId, query.version, query.wait, hangUp, query.dataPlane === 'whole'),
    );
    return sendDataText(reply, json);
  });
  binder.bind(nodeRoutes.getNodePlane, async ({ query }, { node, reply }) => {
    const { wait, ...known } = query;
    return sendDataText(reply, await whileConnected(reply, (hangUp) => planes.poll(node.nodeId, known, wait, hangUp)));
  });
  binder.bind(nodeRoutes.getNodePlaneStream, async ({ query }, { node, reply, request }) => {
    const opened = Date.now();
    let lines = 0;
    return sendLines(reply, 'application/x-ndjson; charset=utf-8', (write) =>
      whileConnected(reply, (hangUp) =>
        planes.stream(
          node.nodeId,
          query,
          (line) => {
            if (line !== '') lines++;
            return write(line);
          },
          hangUp,
          EDGE_PLANE_STREAM_SECONDS,
          EDGE_PLANE_STREAM_KEEPALIVE_SECONDS,
        ),
      ).then(
        () => request.log.info({ nodeId: node.nodeId, lines, ms: Date.now() - opened }, 'plane stream ended'),
        (err: unknown) =>
          request.log.error(
            { err, nodeId: node.nodeId, lines, ms: Date.now() - opened },
            'plane stream ended by an error',
          ),
      ),
    );
  });
  binder.bind(nodeRoutes.listInitializedNodes, async ({ query }, { caller }) => {
    const list = await nodes.listInitialized(
      caller,
      query,
      (id) => snapshots.state(id),
      (id) => planes.currentPlane(id),
    );
    if (!monitorStates) return list;
    const states = await monitorStates(
      caller.operatorId,
      list.data.map((n) => n.id),
    );
    return { ...list, data: list.data.map((n) => ({ ...n, monitorState: states.get(n.id) })) };
  });
  binder.bind(nodeRoutes.reportNodeStatus, async ({ body }, { node }) => {
    await nodes.report(node.nodeId, body);
    await versionReported(node, body.version);
  });
  binder.bind(nodeRoutes.listUninitializedNodes, async ({ query }, { caller }) =>
    nodes.listUninitialized(caller.operatorId, query.page, query.pageSize),
  );
  binder.bind(nodeRoutes.nodeInfo, async (_input, { caller, request, reply }) => {
    const url = publicUrl(`${request.protocol}://${request.host}`);
    const lines = nodeInfoLines(url, await nodes.joinToken(caller.operatorId));
    // A secret: never cache it in a shared cache.
    reply
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(`${lines.join('\n')}\n`);
    return '';
  });
}
