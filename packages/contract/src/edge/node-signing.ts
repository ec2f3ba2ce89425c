/**
 * Signing node-API requests, for Node.js only (node:crypto): the agent signs with it, the control
 * plane checks against it, and tests forge and replay with it. Exported as
 * `@rampart/contract/node-signing` so that the console's bundle never sees node:crypto.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { NODE_SIGNATURE_HEADERS, NODE_SIGNATURE_MAX_SKEW_SECONDS, nodeSignaturePayload } from '../routes/nodes.js';

/** The SHA-256 hex of a request's body, as signed and as sent in `x-rampart-body-sha256`. */
export function nodeBodySha256(body: string | Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

/**
 * HMAC-SHA256 hex, under the node's secret, of {@link nodeSignaturePayload}: from the body, or
 * from its hash (`bodySha256`) where the body is not read yet (the control plane's admission).
 */
export function signNodeRequest(
  secret: string,
  parts: { method: string; path: string; timestamp: string; nonce: string } & (
    | { body: string | Uint8Array }
    | { bodySha256: string }
  ),
): string {
  const bodySha256 = 'bodySha256' in parts ? parts.bodySha256 : nodeBodySha256(parts.body);
  return createHmac('sha256', secret)
    .update(nodeSignaturePayload({ ...parts, bodySha256 }))
    .digest('hex');
}

/**
 * The headers of a signed request: node id, timestamp (unix seconds), a fresh nonce, the body's
 * SHA-256 and the signature. `pathWithQuery` is the path as sent (`/api/edge/v1/...`, with its
 * query). Tests may fix the timestamp or the nonce to forge stale or replayed requests, and leave
 * the body's hash out (`bodyHash: false`) to send as an agent from before it.
 */
export function signedNodeHeaders(
  credentials: { nodeId: number; nodeSecret: string },
  method: string,
  pathWithQuery: string,
  body: string | Uint8Array,
  options: { nowMs?: number; timestamp?: string; nonce?: string; bodyHash?: boolean } = {},
): Record<string, string> {
  const timestamp = options.timestamp ?? String(Math.floor((options.nowMs ?? Date.now()) / 1000));
  const nonce = options.nonce ?? randomBytes(18).toString('base64url');
  const bodySha256 = nodeBodySha256(body);
  return {
    [NODE_SIGNATURE_HEADERS.node]: String(credentials.nodeId),
    [NODE_SIGNATURE_HEADERS.timestamp]: timestamp,
    [NODE_SIGNATURE_HEADERS.nonce]: nonce,
    ...(options.bodyHash === false ? {} : { [NODE_SIGNATURE_HEADERS.bodySha256]: bodySha256 }),
    [NODE_SIGNATURE_HEADERS.signature]: signNodeRequest(credentials.nodeSecret, {
      method,
      path: pathWithQuery,
      bodySha256,
      timestamp,
      nonce,
    }),
  };
}

/**
 * Whether a request's headers have a signed request's form — a node id (a whole number), a
 * timestamp, a nonce, a signature and, if present, a body hash as {@link signedNodeHeaders} writes them — and its timestamp
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
  const bodySha256 = h[NODE_SIGNATURE_HEADERS.bodySha256];
  return (
    (bodySha256 === undefined || (typeof bodySha256 === 'string' && /^[0-9a-f]{64}$/.test(bodySha256))) &&
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
