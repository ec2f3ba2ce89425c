import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import type { NodeCaller } from './bind-route.js';
import { InFlightLimit } from './in-flight-limit.js';

/**
 * Batches one node-API ingest call (aggregates, events, layer-4 counters) takes at once, counted
 * from the arrival of their headers until their reply closes (docs/decisions "Load shedding of the
 * nodes' aggregates"). Each call has its own places: one flooded call never stalls another.
 */
export const NODE_INGEST_MAX_IN_FLIGHT = 16;
/**
 * Of those, what one node may hold. An agent ships one batch at a time per call (its shipper waits
 * for each answer); the second place is for its retry while the copy it gave up on still holds one
 * until its connection's close is seen. A node whose credential leaked holds 2 of the 16, not all.
 */
export const NODE_INGEST_PLACES_PER_NODE = 2;
/**
 * Places for agents from before the body-hash header, apart from the 16: their signature can only
 * be checked once their body is read, so anyone may take these with forged headers; they can never
 * take the places of nodes that prove themselves from their headers. As many as 0141 gave every
 * agent: an upgrade starts with the control plane, and until the operator upgrades the nodes all
 * of them are older agents, which fewer places would shed (a fleet of 50 shipping a partial every
 * 15 s through 2 places would lag while it waits for its upgrade).
 */
export const NODE_INGEST_LEGACY_PLACES = NODE_INGEST_MAX_IN_FLIGHT;
/** An admitted body must move: the limit's `minBytes` (16 KiB) in every window of this length, or its connection is cut. */
export const NODE_INGEST_BODY_MS = 30_000;

/** Why a node-API ingest request was refused before its body was read (the metrics' label). */
export type AdmissionRefusal = 'unauthenticated' | 'busy' | 'node_share' | 'legacy_busy';

/** The signature over a request's headers: its node, null for an older agent, or a throw (101013). */
export type NodeHeaderCheck = (request: FastifyRequest) => Promise<NodeCaller | null>;

/**
 * Admission to one node-API ingest call, before the body is read or a place taken: the request's
 * HMAC over its headers (including the body's SHA-256) is checked through the node-credential
 * cache — an unknown node, a bad signature, a replayed nonce or headers without a signed request's
 * form are refused with 101013 and take nothing. A node that proved itself takes one of `max`
 * places, at most `perNode` of them; an older agent's request (no body-hash header) one of the
 * `legacy` places, and it is checked the old way once its body is in. Beyond them: 101005, 503 and
 * Retry-After. The authenticator then checks the body against the hash the headers claimed.
 */
export class NodeIngestAdmission {
  readonly places: InFlightLimit;
  readonly legacy: InFlightLimit;

  constructor(
    private readonly headers: NodeHeaderCheck,
    options: {
      bodyMs?: number;
      max?: number;
      perNode?: number;
      legacyPlaces?: number;
      onRefused?: (reason: AdmissionRefusal) => void;
    } = {},
  ) {
    const bodyMs = options.bodyMs ?? NODE_INGEST_BODY_MS;
    this.places = new InFlightLimit(
      options.max ?? NODE_INGEST_MAX_IN_FLIGHT,
      undefined,
      bodyMs,
      undefined,
      options.perNode ?? NODE_INGEST_PLACES_PER_NODE,
    );
    this.legacy = new InFlightLimit(options.legacyPlaces ?? NODE_INGEST_LEGACY_PLACES, undefined, bodyMs);
    this.onRefused = options.onRefused ?? (() => {});
  }

  private readonly onRefused: (reason: AdmissionRefusal) => void;

  /** The binder's `admit`. */
  readonly admit = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    let node: NodeCaller | null;
    try {
      node = await this.headers(request);
    } catch (error) {
      this.onRefused('unauthenticated');
      throw error;
    }
    const [limit, key] = node ? [this.places, node.nodeId] : [this.legacy, undefined];
    try {
      limit.admit(request, reply, key);
    } catch (error) {
      if (error instanceof AppError) {
        this.onRefused(!node ? 'legacy_busy' : limit.current >= limit.max ? 'busy' : 'node_share');
      }
      throw error;
    }
  };
}
