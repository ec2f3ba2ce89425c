import { nodeInfo, registerNode } from '@rampart/contract';
import type { FastifyInstance } from 'fastify';
import { bearer } from './auth.js';
import { send } from './call.js';

export interface JoinedNode {
  readonly nodeId: number;
  readonly secret: string;
}

/** The operator's node join token, read from the node installation info as an operator copies it. */
export async function joinToken(app: FastifyInstance, operator: { accessToken: string }): Promise<string> {
  const info = await send(app, nodeInfo, undefined, { headers: bearer(operator) });
  const token = /^join_token=(.*)$/m.exec(info.body)?.[1];
  if (!token) throw new Error(`no join token in ${info.body}`);
  return token;
}

/** Registers a node with the operator's join token, as an agent would. */
export async function joinNode(
  app: FastifyInstance,
  operator: { accessToken: string },
  hostname = 'edge-1',
  ips = ['127.0.0.1'],
): Promise<JoinedNode> {
  const res = await send(app, registerNode, {
    body: { joinToken: await joinToken(app, operator), hostname, ips, version: '0.1.0' },
  });
  const { nodeId, nodeSecret } = res.json().data;
  return { nodeId, secret: nodeSecret };
}
