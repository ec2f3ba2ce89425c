import { type RefusalDrain, refusalDrainSchema } from '@rampart/contract';
import { type AdminEndpoint, adminRequest } from '../data-plane/admin-client.js';

/**
 * Pops refusal tallies from nginx (`GET /refusals`, lua/rampart/refusals.lua;
 * packages/contract/src/edge/refusal-tally.ts): up to REFUSAL_DRAIN_MAX per call, `more` when
 * others wait. A popped tally is gone from nginx: the caller folds it into the minute's aggregates.
 * An answer that does not fit the contract throws (its tallies are lost with it, said by the error).
 */
export async function drainRefusals(endpoint: AdminEndpoint, timeoutMs = 10_000): Promise<RefusalDrain> {
  const { status, text } = await adminRequest(endpoint, 'GET', '/refusals', undefined, timeoutMs);
  if (status !== 200) throw new Error(`refusal drain refused with ${status}: ${text.slice(0, 200)}`);
  const parsed = refusalDrainSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`unexpected refusal drain answer: ${parsed.error.message.slice(0, 300)}`);
  return parsed.data;
}

/** Drains until nginx has no more tallies waiting (at most `maxCalls` calls). */
export async function drainAllRefusals(
  endpoint: AdminEndpoint,
  maxCalls = 20,
  timeoutMs = 10_000,
): Promise<RefusalDrain> {
  const all: RefusalDrain = { tallies: [], more: false, dropped: 0 };
  for (let i = 0; i < maxCalls; i++) {
    const answer = await drainRefusals(endpoint, timeoutMs);
    all.tallies.push(...answer.tallies);
    all.dropped += answer.dropped;
    all.more = answer.more;
    if (!answer.more) break;
  }
  return all;
}
