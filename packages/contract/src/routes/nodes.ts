import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, nodeAccess, pageOf, publicAccess, tiers } from '../route.js';

/**
 * Edge nodes joining the operator's fleet. A node's agent registers with the operator's join token
 * (shown by `GET client/node-info`), receives a node id and secret, and from then on signs every
 * node-API request (see {@link nodeSignaturePayload}). A registered node is uninitialised until the
 * operator places it in a zone and group.
 */

/** Headers of a signed node-API request. */
export const NODE_SIGNATURE_HEADERS = {
  node: 'x-rampart-node',
  timestamp: 'x-rampart-timestamp',
  nonce: 'x-rampart-nonce',
  signature: 'x-rampart-signature',
} as const;
/** How far a request's timestamp may be from the control plane's clock. */
export const NODE_SIGNATURE_MAX_SKEW_SECONDS = 300;

/**
 * The text a node signs with HMAC-SHA256 under its secret (hex digest in `x-rampart-signature`):
 * method, path with query, timestamp, nonce and the SHA-256 hex of the body, one per line.
 */
export function nodeSignaturePayload(parts: {
  method: string;
  path: string;
  timestamp: string;
  nonce: string;
  bodySha256: string;
}): string {
  return [parts.method.toUpperCase(), parts.path, parts.timestamp, parts.nonce, parts.bodySha256].join('\n');
}

const hostLabel = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/);
const ipLiteral = z.union([z.ipv4(), z.ipv6()]);
const agentVersion = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[0-9A-Za-z.+-]+$/);

export const registerNode = defineRoute({
  id: 'edge.register',
  api: 'edge',
  method: 'POST',
  path: '/register',
  access: publicAccess,
  summary: "Registers a node with the operator's join token; answers its id and secret (shown once)",
  tags: ['edge'],
  request: {
    body: z.object({
      joinToken: z.string().min(1).max(256),
      hostname: hostLabel,
      ips: z.array(ipLiteral).min(1).max(32),
      version: agentVersion,
    }),
  },
  response: dataOf(z.object({ nodeId: z.number().int(), nodeSecret: z.string() })),
});

export const reportNodeStatus = defineRoute({
  id: 'edge.status',
  api: 'edge',
  method: 'POST',
  path: '/status',
  access: nodeAccess,
  summary: 'A node reports its agent version, the snapshot version it applied and its last error',
  tags: ['edge'],
  request: {
    body: z.object({
      version: agentVersion,
      appliedVersion: z.string().max(128),
      lastError: z.string().max(2000),
      ips: z.array(ipLiteral).min(1).max(32).optional(),
    }),
  },
  response: dataOf(z.literal(true)),
});

export const uninitializedNodeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  ips: z.array(z.string()),
  version: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string().nullable(),
});

export const listUninitializedNodes = defineRoute({
  id: 'client.nodes.uninitialized',
  method: 'GET',
  path: '/client/nodes',
  access: tiers(['client']),
  summary: 'Nodes that registered and wait to be placed in a zone and group',
  tags: ['nodes'],
  request: { query: pageQuery },
  response: pageOf(uninitializedNodeSchema),
});

export const nodeInfo = defineRoute({
  id: 'client.nodeInfo',
  method: 'GET',
  path: '/client/node-info',
  access: tiers(['client']),
  summary: 'What a new node needs to join: `key=value` lines (control plane URL, join token, install command)',
  tags: ['nodes'],
  request: {},
  response: z.string(),
  reply: 'raw',
});

export const nodeRoutes = { registerNode, reportNodeStatus, listUninitializedNodes, nodeInfo } as const;
