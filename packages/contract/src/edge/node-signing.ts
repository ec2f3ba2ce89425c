/**
 * Signing node-API requests, for Node.js only (node:crypto): the agent signs with it, the control
 * plane checks against it, and tests forge and replay with it. Exported as
 * `@rampart/contract/node-signing` so that the console's bundle never sees node:crypto.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { NODE_SIGNATURE_HEADERS, NODE_SIGNATURE_MAX_SKEW_SECONDS, nodeSignaturePayload } from '../routes/nodes.js';

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

/**
 * Whether a request's headers have a signed request's form — a node id (a whole number), a
 * timestamp, a nonce and a signature as {@link signedNodeHeaders} writes them — and its timestamp
 * within NODE_SIGNATURE_MAX_SKEW_SECONDS of `nowMs`: what can be checked before the body is read
 * and without a lookup (the control plane refuses others before they take an ingest slot).
 */
export function hasNodeSignatureForm(
  h: Readonly<Record<string, string | string[] | undefined>>,
  nowMs: number,
): boolean {
  const nodeId = h[NODE_SIGNATURE_HEADERS.node];
  const timestamp = h[NODE_SIGNATURE_HEADERS.timestamp];
  const nonce = h[NODE_SIGNATURE_HEADERS.nonce];
  const signature = h[NODE_SIGNATURE_HEADERS.signature];
  return (
    typeof nodeId === 'string' &&
    /^[1-9][0-9]{0,14}$/.test(nodeId) &&
    typeof timestamp === 'string' &&
    /^\d{1,12}$/.test(timestamp) &&
    Math.abs(nowMs / 1000 - Number(timestamp)) <= NODE_SIGNATURE_MAX_SKEW_SECONDS &&
    typeof nonce === 'string' &&
    /^[A-Za-z0-9_-]{16,128}$/.test(nonce) &&
    typeof signature === 'string' &&
    /^[0-9a-f]{64}$/.test(signature)
  );
}
