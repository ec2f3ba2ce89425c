import { type AnyRoute, nodeInfo, registerNode as registerNodeRoute } from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import { type CallInput, requestFor } from '@rampart/contract/testing';
import { apiText, callApi } from './api.js';
import { E2E } from './env.js';

/** A registered node's credentials, for the signed node API. */
export interface NodeCredentials {
  nodeId: number;
  nodeSecret: string;
}

/** Registers a node with the operator's join token, as `rampart-edge` does on a new machine. */
export async function registerNode(hostname: string): Promise<number> {
  return (await registerNodeWithSecret(hostname)).nodeId;
}

/**
 * Calls a node-API route signed as the node, as its agent does (to arrange what only a node
 * reports, e.g. a block); throws unless the answer is 2xx. Answers the reply's JSON (null: none).
 */
export async function nodeApi<R extends AnyRoute>(
  node: NodeCredentials,
  route: R,
  input: CallInput<R>,
): Promise<unknown> {
  const request = requestFor(route, input);
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  const res = await fetch(`${E2E.url}${request.url}`, {
    method: request.method,
    headers: {
      ...signedNodeHeaders(node, request.method, request.url, body),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${route.method} ${route.path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** {@link registerNode}, answering the node's secret too. */
export async function registerNodeWithSecret(hostname: string): Promise<NodeCredentials> {
  const info = await apiText('client', nodeInfo);
  const joinToken = /^join_token=(.*)$/m.exec(info)?.[1];
  if (!joinToken) throw new Error(`no join token in ${info}`);
  const res = await callApi(registerNodeRoute, {
    body: { joinToken, hostname, ips: ['192.0.2.44'], version: '0.1.0' },
  });
  if (res.status !== 200) throw new Error(`register: ${res.status} ${JSON.stringify(res.body)}`);
  return { nodeId: res.body.data.nodeId, nodeSecret: res.body.data.nodeSecret };
}
