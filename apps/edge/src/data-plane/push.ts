import { z } from 'zod';
import type { DataPlane } from './schema.js';

/** What the admin endpoint answers for an accepted push. */
export const pushResultSchema = z.object({
  version: z.string(),
  generation: z.number().int(),
  domains: z.number().int(),
  certificates: z.number().int(),
});
export type PushResult = z.infer<typeof pushResultSchema>;

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
 * PUTs a validated document (see parseDataPlane) to the node's loopback admin endpoint and returns
 * what became active. The whole document replaces the previous one as a new generation.
 */
export async function pushDataPlane(adminPort: number, doc: DataPlane, timeoutMs = 30_000): Promise<PushResult> {
  const response = await fetch(`http://127.0.0.1:${adminPort}/config`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(doc),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: reported below.
  }
  if (response.status !== 200) {
    const refusal = z.object({ error: z.string(), field: z.string().optional() }).safeParse(body);
    throw refusal.success
      ? new DataPlanePushError(response.status, refusal.data.field ?? null, refusal.data.error)
      : new DataPlanePushError(response.status, null, text.slice(0, 200));
  }
  const result = pushResultSchema.safeParse(body);
  if (!result.success) throw new DataPlanePushError(response.status, null, `unexpected answer: ${text.slice(0, 200)}`);
  return result.data;
}
