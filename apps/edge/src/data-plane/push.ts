import { z } from 'zod';
import { type AdminEndpoint, adminRequest, documentHash } from './admin-client.js';
import type { LuaOp } from './lua-plane.js';
import type { DataPlane } from './schema.js';

/** What the admin endpoint answers for an accepted push. */
export const pushResultSchema = z.object({
  version: z.string(),
  generation: z.number().int(),
  domains: z.number().int(),
  certificates: z.number().int(),
  /** SHA-1 (hex) of the pushed document's bytes, as the admin endpoint computed it (a whole-document push). */
  hash: z.string().optional(),
  /** The sum of the records' hashes mod 2^48 (a push of records: PATCH /config). */
  sum: z.string().optional(),
});
export type PushResult = z.infer<typeof pushResultSchema>;

/** What the admin endpoint holds now (`GET /config/version`); null when nothing was pushed yet. */
export async function activeDataPlane(endpoint: AdminEndpoint, timeoutMs = 10_000): Promise<PushResult | null> {
  const answer = await adminRequest(endpoint, 'GET', '/config/version', undefined, timeoutMs);
  if (answer.status === 404) return null;
  if (answer.status !== 200) throw new Error(`admin endpoint answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  const parsed = pushResultSchema.safeParse(JSON.parse(answer.text));
  if (!parsed.success) throw new Error(`unexpected answer: ${answer.text.slice(0, 200)}`);
  return parsed.data;
}

/** The admin endpoint refused a push (400 bad document, 409 push in progress, 507 dict full). */
export class DataPlanePushError extends Error {
  override readonly name = 'DataPlanePushError';
  constructor(
    readonly status: number,
    readonly field: string | null,
    message: string,
  ) {
    super(`push refused with ${status}: ${message}${field ? ` (${field})` : ''}`);
  }
}

/**
 * PUTs a validated document (see parseDataPlane) to the node's admin endpoint and returns what
 * became active. The whole document replaces the previous one as a new generation. The answer's
 * hash must be the document's (the agent compares it later to notice a data plane it did not push).
 */
export async function pushDataPlane(endpoint: AdminEndpoint, doc: DataPlane, timeoutMs = 30_000): Promise<PushResult> {
  const text = JSON.stringify(doc);
  const response = await adminRequest(endpoint, 'PUT', '/config', text, timeoutMs);
  const result = pushAnswer(response);
  if (result.hash !== documentHash(text)) throw unexpected(response.text);
  return result;
}

const unexpected = (text: string) => new DataPlanePushError(200, null, `unexpected answer: ${text.slice(0, 200)}`);

/**
 * What the admin endpoint answered a push (PUT or PATCH /config): the active data plane, or the
 * refusal as DataPlanePushError (its status, and the field when it names one).
 */
function pushAnswer(response: { status: number; text: string }): PushResult {
  let body: unknown = null;
  try {
    body = JSON.parse(response.text);
  } catch {
    // Not JSON: reported below.
  }
  if (response.status !== 200) {
    const refusal = z.object({ error: z.string(), field: z.string().optional() }).safeParse(body);
    throw refusal.success
      ? new DataPlanePushError(response.status, refusal.data.field ?? null, refusal.data.error)
      : new DataPlanePushError(response.status, null, response.text.slice(0, 200));
  }
  const result = pushResultSchema.safeParse(body);
  if (!result.success) throw unexpected(response.text);
  return result.data;
}

/** A push of records (PATCH /config; rampart.admin): the changed ones, or all of them with `reset`. */
export interface RecordsPush {
  version: string;
  /** The store's version this push builds on (null: whatever it holds, with `reset`). */
  from: number | null;
  reset: boolean;
  meta: { limits: unknown; geoDatabase: string | null; abuseIPs: string | null };
  ops: LuaOp[];
}

/**
 * PATCHes records into the node's store and returns what became active; the answer's `sum` must
 * be `expectedSum` (the agent's own sum of the records), or nginx holds something else.
 */
export async function patchDataPlane(
  endpoint: AdminEndpoint,
  push: RecordsPush,
  expectedSum: string,
  timeoutMs = 60_000,
): Promise<PushResult> {
  const result = pushAnswer(await adminRequest(endpoint, 'PATCH', '/config', JSON.stringify(push), timeoutMs));
  if (result.sum !== expectedSum) {
    throw new DataPlanePushError(200, null, `the store's records sum to ${result.sum}, not ${expectedSum}`);
  }
  return result;
}
