import { type RefusalDrain, type RefusalTally, refusalDrainSchema } from '@rampart/contract';
import { type AdminEndpoint, adminRequest } from '../../data-plane/admin-client.js';

/**
 * Takes the refusal tallies nginx kept instead of log lines (contract edge/refusal-tally.ts;
 * lua/rampart/refusals.lua) from the admin endpoint: `GET /refusals` pops up to REFUSAL_DRAIN_MAX
 * per call and says `more` when others wait. A popped tally is gone from nginx: the caller folds it
 * into the minute's aggregates (AggregateFeed.addRefusals). An answer that does not fit the
 * contract throws, none of it folded (its tallies are lost with it, said by the error).
 *
 * A drained tally lives in the aggregator's memory until its minute is spooled, so a worker killed
 * in between loses it (unlike a log line, it cannot be read again).
 */

export interface DrainResult {
  /** Tallies folded, and the requests they counted. */
  tallies: number;
  requests: number;
  /** Refusals nginx could neither log nor tally (its dict full), as it reported them. */
  dropped: number;
}

/** One call: pops one page of tallies. */
export async function drainRefusalPage(endpoint: AdminEndpoint, timeoutMs = 10_000): Promise<RefusalDrain> {
  const { status, text } = await adminRequest(endpoint, 'GET', '/refusals', undefined, timeoutMs);
  if (status !== 200) throw new Error(`admin GET /refusals answered ${status}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error('admin GET /refusals answered no JSON');
  }
  const parsed = refusalDrainSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`admin GET /refusals answered no drain: ${issue?.path.join('.')} ${issue?.message}`);
  }
  return parsed.data;
}

/** Pops pages while nginx says more wait (at most `maxPages`) and hands each tally to `fold`. */
export async function drainRefusals(
  endpoint: AdminEndpoint,
  fold: (tally: RefusalTally) => void,
  options: { maxPages?: number; timeoutMs?: number } = {},
): Promise<DrainResult> {
  const result: DrainResult = { tallies: 0, requests: 0, dropped: 0 };
  const maxPages = options.maxPages ?? 20;
  for (let page = 0; page < maxPages; page++) {
    const drain = await drainRefusalPage(endpoint, options.timeoutMs);
    for (const tally of drain.tallies) {
      fold(tally);
      result.tallies++;
      result.requests += tally.count;
    }
    result.dropped += drain.dropped;
    if (!drain.more || drain.tallies.length === 0) break;
  }
  return result;
}

/** Everything waiting (at most `maxPages` calls), as one drain. */
export async function drainAllRefusals(
  endpoint: AdminEndpoint,
  maxPages = 20,
  timeoutMs = 10_000,
): Promise<RefusalDrain> {
  const all: RefusalDrain = { tallies: [], more: false, dropped: 0 };
  for (let page = 0; page < maxPages; page++) {
    const drain = await drainRefusalPage(endpoint, timeoutMs);
    all.tallies.push(...drain.tallies);
    all.dropped += drain.dropped;
    all.more = drain.more;
    if (!drain.more) break;
  }
  return all;
}
