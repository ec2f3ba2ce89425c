/**
 * Signing node-API requests, for Node.js only (node:crypto): the agent signs with it, the control
 * plane checks against it, and tests forge and replay with it. Exported as
 * `@rampart/contract/node-signing` so that the console's bundle never sees node:crypto.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { NODE_SIGNATURE_HEADERS, nodeSignaturePayload } from '../routes/nodes.js';

/** HMAC-SHA256 hex, under the node's secret, of {@link nodeSignaturePayload}. */
export function signNodeRequest(
  secret: string,
  parts: { method: string; path: string; body: string | Uint8Array; timestamp: string; nonce: string },
): string {
  const bodySha256 = createHash('sha256').update(parts.body).digest('hex');
  return createHmac('sha256', secret)
    .update(nodeSignaturePayload({ ...parts, bodySha256 }))
    .digest('hex');
}

/**
 * The headers of a signed request: node id, timestamp (unix seconds), a fresh nonce, signature.
 * `pathWithQuery` is the path as sent (`/api/edge/v1/...`, with its query). Tests may fix the
 * timestamp or the nonce to forge stale or replayed requests.
 */
export function signedNodeHeaders(
  credentials: { nodeId: number; nodeSecret: string },
  method: string,
  pathWithQuery: string,
  body: string | Uint8Array,
  options: { nowMs?: number; timestamp?: string; nonce?: string } = {},
): Record<string, string> {
  const timestamp = options.timestamp ?? String(Math.floor((options.nowMs ?? Date.now()) / 1000));
  const nonce = options.nonce ?? randomBytes(18).toString('base64url');
  return {
    [NODE_SIGNATURE_HEADERS.node]: String(credentials.nodeId),
    [NODE_SIGNATURE_HEADERS.timestamp]: timestamp,
    [NODE_SIGNATURE_HEADERS.nonce]: nonce,
    [NODE_SIGNATURE_HEADERS.signature]: signNodeRequest(credentials.nodeSecret, {
      method,
      path: pathWithQuery,
      body,
      timestamp,
      nonce,
    }),
  };
}
