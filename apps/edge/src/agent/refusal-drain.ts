import { type RefusalTally, refusalDrainSchema } from '@rampart/contract';
import { type AdminEndpoint, adminRequest } from '../data-plane/admin-client.js';

/**
 * Takes the refusal tallies nginx kept instead of log lines (contract edge/refusal-tally.ts) from
 * the admin endpoint (`GET /refusals`, which pops what it answers) and hands each to `fold` (the
 * aggregates' AggregateFeed.addRefusals), page after page while nginx says more wait, at most
 * `maxPages` a call. A page that is not a drain by the contract's schema throws, none of it folded.
 *
 * Not wired into the event worker yet: nginx's side (the tally dict and the admin route) is built
 * on another branch. A drained tally lives in the aggregator's memory until its minute is spooled,
 * so a worker killed in between loses it (unlike a log line, it cannot be read again).
 */

export interface DrainResult {
  /** Tallies folded, and the requests they counted. */
  tallies: number;
  requests: number;
  /** Refusals nginx could neither log nor tally (its dict full), as it reported them. */
  dropped: number;
}

export async function drainRefusals(
  endpoint: AdminEndpoint,
  fold: (tally: RefusalTally) => void,
  options: { maxPages?: number; timeoutMs?: number } = {},
): Promise<DrainResult> {
  const result: DrainResult = { tallies: 0, requests: 0, dropped: 0 };
  const maxPages = options.maxPages ?? 20;
  for (let page = 0; page < maxPages; page++) {
    const { status, text } = await adminRequest(endpoint, 'GET', '/refusals', undefined, options.timeoutMs);
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
    for (const tally of parsed.data.tallies) {
      fold(tally);
      result.tallies++;
      result.requests += tally.count;
    }
    result.dropped += parsed.data.dropped;
    if (!parsed.data.more || parsed.data.tallies.length === 0) break;
  }
  return result;
}
