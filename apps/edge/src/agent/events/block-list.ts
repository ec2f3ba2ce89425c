import { BLOCK_REPORT_MAX, type EdgeBlockReport, edgeBlockReportSchema } from '@rampart/contract';
import { z } from 'zod';
import { type AdminEndpoint, adminRequest } from '../../data-plane/admin-client.js';
import { Backoff, pause } from '../backoff.js';
import { kernelBlocksOf } from '../l4/l4-firewall.js';
import type { L4BlockedEntry } from '../l4/l4-rules-render.js';
import { errorText, type Logger } from '../log.js';
import { NodeApiError, type NodeClient } from '../node-api/node-client.js';

/**
 * The agent's side of the block list (packages/contract/src/routes/block-list.ts; lua/rampart/blocklist.lua;
 * docs/decisions.md "The block list at the edge"). nginx blocks an address the moment a DROP +
 * Blacklist rule catches it and queues one report per block in a shared dict; this reporter pops
 * the queue through the admin endpoint every half second and sends the reports to the control
 * plane (`POST /api/edge/v1/blocks`, BLOCK_REPORT_MAX per call). Reports the control plane did not
 * take stay in memory (at most MAX_KEPT, the oldest dropped with a warning) and are sent again
 * with the usual backoff. The `unblock` command removes blocks through the admin endpoint.
 */

/** Reports kept for the control plane while it cannot be reached. */
export const MAX_KEPT = 10_000;

const eventsAnswer = z.object({
  events: z.array(z.unknown()),
  dropped: z.number().int().min(0),
  full: z.number().int().min(0),
});

/** Pops up to BLOCK_REPORT_MAX queued reports from nginx; invalid ones are counted and left out. */
export async function popBlockEvents(
  endpoint: AdminEndpoint,
  timeoutMs = 10_000,
): Promise<{ events: EdgeBlockReport[]; invalid: number; dropped: number; full: number }> {
  const { status, text } = await adminRequest(endpoint, 'GET', '/blocklist/events', undefined, timeoutMs);
  if (status !== 200) throw new Error(`block events refused with ${status}: ${text.slice(0, 200)}`);
  const parsed = eventsAnswer.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`unexpected block events answer: ${text.slice(0, 200)}`);
  const events: EdgeBlockReport[] = [];
  let invalid = 0;
  for (const raw of parsed.data.events) {
    const event = edgeBlockReportSchema.safeParse(raw);
    if (event.success) events.push(event.data);
    else invalid++;
  }
  return { events, invalid, dropped: parsed.data.dropped, full: parsed.data.full };
}

/** Removes these blocks from nginx's block list; answers how many there were. */
export async function unblockAddresses(
  endpoint: AdminEndpoint,
  entries: { siteId: number; ip: string }[],
  timeoutMs = 10_000,
): Promise<number> {
  const body = JSON.stringify({ entries });
  const { status, text } = await adminRequest(endpoint, 'POST', '/blocklist/unblock', body, timeoutMs);
  if (status !== 200) throw new Error(`unblock refused with ${status}: ${text.slice(0, 200)}`);
  const parsed = z.object({ removed: z.number().int().min(0) }).safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`unexpected unblock answer: ${text.slice(0, 200)}`);
  return parsed.data.removed;
}

export interface BlockReporterOptions {
  admin: AdminEndpoint;
  /** The control plane client once the node is registered (null before). */
  client: () => NodeClient | null;
  log: Logger;
  signal: AbortSignal;
  intervalMs?: number;
  maxKept?: number;
  backoffMinMs?: number;
  backoffMaxMs?: number;
  /**
   * The kernel's blocked set (agent/l4-firewall.ts): each block nginx reports is pushed down so a
   * flood from that address stops before nginx. Absent: nginx alone blocks.
   */
  kernel?: { block(entries: readonly L4BlockedEntry[]): Promise<void> } | undefined;
  /**
   * The kernel's blocked set for the floods nginx escalated (cause `escalated`; lua/rampart/escalate.lua):
   * they go down whatever `kernel` does. Absent: no firewall, nginx alone blocks them.
   */
  escalate?: ((entries: readonly L4BlockedEntry[]) => Promise<void>) | undefined;
}

export class BlockReporter {
  /** Reports popped from nginx and not yet taken by the control plane, oldest first. */
  private pending: EdgeBlockReport[] = [];
  /** nginx's counters as last seen (they count since nginx started). */
  private seen = { dropped: 0, full: 0 };
  /** Whether the last pop failed (logged once per failing stretch). */
  private popFailing = false;
  /** Reports this agent dropped because too many were kept. */
  droppedKept = 0;

  constructor(private readonly options: BlockReporterOptions) {}

  /** Reports waiting for the control plane. */
  get waiting(): number {
    return this.pending.length;
  }

  /** Runs until the signal aborts. */
  async run(): Promise<void> {
    const { signal } = this.options;
    const interval = this.options.intervalMs ?? 500;
    const backoff = new Backoff(this.options.backoffMinMs ?? 500, this.options.backoffMaxMs ?? 10_000);
    while (!signal.aborted) {
      await this.collect();
      let wait = interval;
      if (this.pending.length > 0) {
        try {
          await this.send();
          backoff.reset();
        } catch (err) {
          if (signal.aborted) return;
          wait = backoff.next();
          this.options.log('warn', 'blocks.report_failed', {
            error: errorText(err),
            waiting: this.pending.length,
            retryMs: wait,
          });
        }
      }
      await pause(wait, signal);
    }
  }

  /** Pops nginx's queue into `pending` (bounded). */
  async collect(): Promise<void> {
    const { log } = this.options;
    let answer: Awaited<ReturnType<typeof popBlockEvents>>;
    try {
      answer = await popBlockEvents(this.options.admin);
      if (this.popFailing) log('info', 'blocks.events_readable', {});
      this.popFailing = false;
    } catch (err) {
      // nginx not (yet) running, or restarting: said once, tried again on the next round.
      if (!this.popFailing) log('warn', 'blocks.events_unreadable', { error: errorText(err) });
      this.popFailing = true;
      return;
    }
    if (answer.invalid > 0) log('warn', 'blocks.events_invalid', { count: answer.invalid });
    // The counters restart with nginx: a smaller number is a new count.
    const lost = {
      dropped: answer.dropped < this.seen.dropped ? answer.dropped : answer.dropped - this.seen.dropped,
      full: answer.full < this.seen.full ? answer.full : answer.full - this.seen.full,
    };
    this.seen = { dropped: answer.dropped, full: answer.full };
    if (lost.dropped > 0) log('warn', 'blocks.queue_full', { dropped: lost.dropped });
    if (lost.full > 0) log('warn', 'blocks.list_full', { refused: lost.full });
    const { kernel, escalate } = this.options;
    const escalated = answer.events.filter((e) => e.cause === 'escalated');
    const rules = escalated.length > 0 ? answer.events.filter((e) => e.cause !== 'escalated') : answer.events;
    // The firewall logs its own failure; nginx keeps blocking, and the reports still go out.
    if (kernel && rules.length > 0) await kernel.block(kernelBlocksOf(rules, Date.now() / 1000)).catch(() => {});
    if (escalate && escalated.length > 0) await escalate(kernelBlocksOf(escalated, Date.now() / 1000)).catch(() => {});
    this.pending.push(...answer.events);
    const max = this.options.maxKept ?? MAX_KEPT;
    if (this.pending.length > max) {
      const over = this.pending.length - max;
      this.pending.splice(0, over);
      this.droppedKept += over;
      log('warn', 'blocks.reports_dropped', { dropped: over, kept: max, droppedTotal: this.droppedKept });
    }
  }

  /** Sends every pending report, BLOCK_REPORT_MAX per call; throws on the first failure (the rest stay). */
  async send(): Promise<void> {
    const client = this.options.client();
    if (client === null) throw new Error('the node is not registered yet');
    while (this.pending.length > 0) {
      const batch = this.pending.slice(0, BLOCK_REPORT_MAX);
      try {
        await client.reportBlocks(batch, this.options.signal);
      } catch (err) {
        // A refused body would be refused again: left out, said loudly (the schema checked it already).
        if (err instanceof NodeApiError && err.status === 400) {
          this.pending.splice(0, batch.length);
          this.options.log('error', 'blocks.reports_refused', { count: batch.length, error: errorText(err) });
          continue;
        }
        throw err;
      }
      this.pending.splice(0, batch.length);
    }
  }
}
