import { EDGE_API_BASE } from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import type { FastifyInstance } from 'fastify';
import { bearer } from './auth.js';

export interface JoinedNode {
  readonly nodeId: number;
  readonly secret: string;
}

/** Registers a node with the operator's join token, as an agent would. */
export async function joinNode(
  app: FastifyInstance,
  operator: { accessToken: string },
  hostname = 'edge-1',
): Promise<JoinedNode> {
  const info = await app.inject({ method: 'GET', url: '/api/v1/client/node-info', headers: bearer(operator) });
  const token = /^join_token=(.*)$/m.exec(info.body)?.[1];
  if (!token) throw new Error(`no join token in ${info.body}`);
  const res = await app.inject({
    method: 'POST',
    url: `${EDGE_API_BASE}/register`,
    payload: { joinToken: token, hostname, ips: ['127.0.0.1'], version: '0.1.0' },
  });
  const { nodeId, nodeSecret } = res.json().data;
  return { nodeId, secret: nodeSecret };
}

/**
 * A node-API request signed with the node's secret; `path` is below /api/edge/v1 and may carry a
 * query. `nowMs` signs with another time (an app running on a manual clock).
 */
export function nodeRequest(
  app: FastifyInstance,
  node: JoinedNode,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  options: { nowMs?: number } = {},
) {
  const url = `${EDGE_API_BASE}${path}`;
  const payload = body === undefined ? '' : JSON.stringify(body);
  return app.inject({
    method,
    url,
    ...(body === undefined ? {} : { payload }),
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...signedNodeHeaders({ nodeId: node.nodeId, nodeSecret: node.secret }, method, url, payload, options),
    },
  });
}
