import { z } from 'zod';
import { type AdminEndpoint, adminRequest, documentHash } from './admin-client.js';
import type { DataPlane } from './schema.js';

/** What the admin endpoint answers for an accepted push. */
export const pushResultSchema = z.object({
  version: z.string(),
  generation: z.number().int(),
  domains: z.number().int(),
  certificates: z.number().int(),
  /** SHA-1 (hex) of the pushed document's bytes, as the admin endpoint computed it. */
  hash: z.string(),
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
  if (!result.success || result.data.hash !== documentHash(text)) {
    throw new DataPlanePushError(response.status, null, `unexpected answer: ${response.text.slice(0, 200)}`);
  }
  return result.data;
}
