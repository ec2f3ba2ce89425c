import { NODE_SIGNATURE_HEADERS, NODE_SIGNATURE_MAX_SKEW_SECONDS } from '@rampart/contract';
import { hasNodeSignatureForm, nodeBodySha256, signNodeRequest } from '@rampart/contract/node-signing';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { safeEqual } from '../../platform/crypto/keys.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { NodeAuthenticator, NodeCaller } from '../../platform/http/bind-route.js';
import type { NodesRepository } from './nodes.repository.js';

/**
 * Nonces seen within the allowed skew, so a captured request cannot be replayed. Kept in memory
 * and bounded; several control planes each keep their own (a replay to another one within the
 * skew window is the documented gap until nonces move to the shared store).
 */
class NonceCache {
  private readonly seen = new Map<string, number>();
  constructor(private readonly maxEntries = 200_000) {}

  /** False when the nonce was already used. */
  use(key: string, expiresAt: number, now: number): boolean {
    if (this.seen.size > this.maxEntries / 2) {
      for (const [k, exp] of this.seen) if (exp <= now) this.seen.delete(k);
    }
    if (this.seen.has(key)) return false;
    if (this.seen.size >= this.maxEntries) {
      const oldest = this.seen.keys().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    this.seen.set(key, expiresAt);
    return true;
  }
}

/**
 * A node's id, owner and opened secret, kept a minute per process. A node's secret is written once,
 * when it registers, and nodes are never deleted (an operator disables one, which the data it is
 * answered reflects, not its signature), so what is kept cannot go wrong; the minute bounds what a
 * restored database backup may leave behind. Without it every poll a change wakes read its node
 * and opened its secret: one query per node and change (issue 25's CPU per change).
 * An id no node has is remembered as such for UNKNOWN_NODE_MS (at most UNKNOWN_NODE_ENTRIES ids,
 * the oldest forgotten first), so headers forged for one made-up id, sent at every ingest call's
 * admission, cost one query per id and interval rather than one per request. A node registered
 * under an id that was just asked for is refused until then (its agent retries with backoff).
 */
class NodeCredentials {
  private readonly kept = new Map<number, { ownerId: number; secret: string; until: number }>();
  /** Ids no node had when last looked up, and until when that answer holds. */
  private readonly unknown = new Map<number, number>();
  /** Lookups under way, by id. */
  private readonly pending = new Map<number, Promise<{ ownerId: number; secret: string } | null>>();
  constructor(
    private readonly nodes: NodesRepository,
    private readonly box: SecretBox,
    private readonly maxEntries = 100_000,
  ) {}

  async get(nodeId: number, now: number): Promise<{ ownerId: number; secret: string } | null> {
    const hit = this.kept.get(nodeId);
    if (hit && hit.until > now) return hit;
    if ((this.unknown.get(nodeId) ?? 0) > now) return null;
    // One lookup per id at a time: requests arriving together for an id not kept share its answer.
    const pending = this.pending.get(nodeId);
    if (pending) return pending;
    const lookup = this.lookUp(nodeId, now).finally(() => this.pending.delete(nodeId));
    this.pending.set(nodeId, lookup);
    return lookup;
  }

  private async lookUp(nodeId: number, now: number): Promise<{ ownerId: number; secret: string } | null> {
    const node = await this.nodes.findNode(nodeId);
    if (!node) {
      this.kept.delete(nodeId);
      this.unknown.delete(nodeId);
      if (this.unknown.size >= UNKNOWN_NODE_ENTRIES) {
        const oldest = this.unknown.keys().next().value;
        if (oldest !== undefined) this.unknown.delete(oldest);
      }
      this.unknown.set(nodeId, now + UNKNOWN_NODE_MS);
      return null;
    }
    this.unknown.delete(nodeId);
    if (this.kept.size >= this.maxEntries) this.kept.clear();
    const kept = { ownerId: node.ownerId, secret: this.box.open(node.secretSealed), until: now + CREDENTIALS_MS };
    this.kept.set(nodeId, kept);
    return kept;
  }
}

const CREDENTIALS_MS = 60_000;
/** How long an id no node has is answered unknown without a query, and how many such ids are kept. */
export const UNKNOWN_NODE_MS = 5_000;
const UNKNOWN_NODE_ENTRIES = 10_000;

/** The node a request's headers proved before its body was read, and the body's hash they claim. */
interface AdmittedNode extends NodeCaller {
  readonly bodySha256: string;
}

/**
 * Checks of signed node-API requests, sharing one credential cache and one nonce cache:
 * - `headers`, before the body is read (an ingest's admission): a request that carries the body's
 *   hash (`x-rampart-body-sha256`) has its HMAC checked over its headers — known node, timestamp
 *   within the skew, signature over that hash, nonce not seen — and answers its node; one without
 *   it (an agent from before the header) answers null, to be checked the old way after its body.
 * - `authenticate`, once the body is read: a request `headers` admitted has its body checked
 *   against the hash it claimed; any other has the whole check (HMAC over method, path, timestamp,
 *   nonce and body, nonce not seen).
 * Any failure is 101013, the same answer whatever was wrong.
 */
export interface NodeSignatures {
  readonly headers: (request: FastifyRequest) => Promise<NodeCaller | null>;
  readonly authenticate: NodeAuthenticator;
}

export function createNodeSignatures(nodes: NodesRepository, box: SecretBox, clock: Clock): NodeSignatures {
  const nonces = new NonceCache();
  const credentials = new NodeCredentials(nodes, box);
  /** The node, once its signature over `bodySha256` and its nonce are checked. */
  const check = async (request: FastifyRequest, bodySha256: string): Promise<NodeCaller> => {
    const h = request.headers;
    const now = clock();
    if (!hasNodeSignatureForm(h, now)) throw new AppError(101013);
    const nodeId = Number(h[NODE_SIGNATURE_HEADERS.node]);
    const timestamp = String(h[NODE_SIGNATURE_HEADERS.timestamp]);
    const nonce = String(h[NODE_SIGNATURE_HEADERS.nonce]);
    const signature = String(h[NODE_SIGNATURE_HEADERS.signature]);
    const node = await credentials.get(nodeId, now);
    if (!node) throw new AppError(101013);
    const expected = signNodeRequest(node.secret, {
      method: request.method,
      // As sent: the URL the router reads may have been rewritten (url-decoding.ts).
      path: request.originalUrl,
      bodySha256,
      timestamp,
      nonce,
    });
    if (!safeEqual(expected, signature)) throw new AppError(101013);
    if (!nonces.use(`${nodeId}:${nonce}`, now + 2 * NODE_SIGNATURE_MAX_SKEW_SECONDS * 1000, now)) {
      throw new AppError(101013, { extra: { reason: 'replayed request' } });
    }
    return { nodeId, ownerId: node.ownerId };
  };
  return {
    headers: async (request) => {
      if (!hasNodeSignatureForm(request.headers, clock())) throw new AppError(101013);
      const claimed = request.headers[NODE_SIGNATURE_HEADERS.bodySha256];
      if (typeof claimed !== 'string') return null;
      const node = await check(request, claimed);
      request.admittedNode = { ...node, bodySha256: claimed };
      return node;
    },
    authenticate: async (request) => {
      const body = nodeBodySha256(request.rawBody ?? '');
      const admitted = request.admittedNode;
      if (admitted) {
        if (!safeEqual(admitted.bodySha256, body)) throw new AppError(101013, { extra: { reason: 'body hash' } });
        return { nodeId: admitted.nodeId, ownerId: admitted.ownerId };
      }
      const claimed = request.headers[NODE_SIGNATURE_HEADERS.bodySha256];
      if (claimed !== undefined && claimed !== body) throw new AppError(101013, { extra: { reason: 'body hash' } });
      return check(request, body);
    },
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body as received, for signature checks. */
    rawBody?: string | Buffer;
    /** The node whose signature over its headers admitted this request (NodeSignatures.headers). */
    admittedNode?: AdmittedNode;
  }
}
