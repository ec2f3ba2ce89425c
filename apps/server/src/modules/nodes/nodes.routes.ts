import { nodeRoutes } from '@rampart/contract';
import { type Binder, requireCaller } from '../../platform/http/bind-route.js';
import type { NodesService } from './nodes.service.js';

export function bindNodeRoutes(binder: Binder, nodes: NodesService, publicUrl: (origin: string) => string): void {
  binder.bind(nodeRoutes.registerNode, async ({ body }) => ({ data: await nodes.register(body) }));
  binder.bind(nodeRoutes.reportNodeStatus, async ({ body }, { node }) => {
    if (!node) throw new Error('node route without a node');
    await nodes.report(node.nodeId, body);
    return { data: true as const };
  });
  binder.bind(nodeRoutes.listUninitializedNodes, async ({ query }, { caller }) => {
    return nodes.listUninitialized(await nodes.operatorOf(requireCaller(caller).accountId), query.page, query.pageSize);
  });
  binder.bind(nodeRoutes.nodeInfo, async (_input, { caller, request, reply }) => {
    const operatorId = await nodes.operatorOf(requireCaller(caller).accountId);
    const url = publicUrl(`${request.protocol}://${request.host}`);
    const token = await nodes.joinToken(operatorId);
    const lines = [
      `control_plane_url=${url}`,
      `join_token=${token}`,
      `install_command=rampart-edge join --control-plane ${url} --token ${token}`,
    ];
    // A secret: never cache it in a shared cache.
    reply
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(`${lines.join('\n')}\n`);
    return '';
  });
}
