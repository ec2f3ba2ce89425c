import { readFile } from 'node:fs/promises';
import { Backoff, pause } from '../backoff.js';
import { errorText, type Logger } from '../log.js';
import { NodeApiError, type NodeClient } from '../node-api/node-client.js';
import type { EventSpool } from './event-spool.js';

/**
 * Ships the spooled event batches to the control plane (`POST /api/edge/v1/events`), oldest
 * first, one at a time (docs/decisions.md "Traffic analytics at the edge"). A batch file is
 * removed only once the control plane acknowledged it: at least once. A failure waits with the
 * usual backoff and sends the same file again, bytes and batchId unchanged, so the control plane
 * counts a batch whose answer was lost once. A batch the control plane can never take (refused as
 * malformed or too large) is removed and its events counted as dropped, instead of holding up
 * every later batch.
 */

/** Answers that will not change on a retry of the same bytes. */
const REFUSED_FOR_GOOD = new Set([400, 413, 415]);

/** What the shipper needs of a spool (the events' EventSpool, the layer-4 counters' L4CounterSpool). */
export interface ShipperSpool {
  readonly dir: string;
  readonly waiting: number;
  takeOldest(): { seq: number; file: string; count: number } | null;
  acknowledge(batch: { seq: number; file: string; count: number }): Promise<void>;
  discard(batch: { seq: number; file: string; count: number }): Promise<void>;
  release(): void;
}

export interface EventShipperOptions {
  spool: EventSpool | ShipperSpool;
  /** Sends one batch file's bytes (default: the events' call, client.shipEvents). */
  ship?: (client: NodeClient, bytes: Uint8Array, signal: AbortSignal) => Promise<{ duplicate: boolean }>;
  /** The first word of the log's event names (default `events`). */
  name?: string;
  /** The control plane client once the node is registered (null before). */
  client: () => NodeClient | null;
  log: Logger;
  signal: AbortSignal;
  /** How often an empty spool is looked at again. */
  idleMs?: number;
  backoffMinMs?: number;
  backoffMaxMs?: number;
}

export class EventShipper {
  /** Batches and events the control plane acknowledged since the agent started. */
  shipped = { batches: 0, events: 0 };

  constructor(private readonly options: EventShipperOptions) {}

  /** Runs until the signal aborts. */
  async run(): Promise<void> {
    const { signal, log } = this.options;
    const spool = this.options.spool as ShipperSpool;
    const name = this.options.name ?? 'events';
    const ship = this.options.ship ?? ((client, bytes, abort) => client.shipEvents(bytes, abort));
    const backoff = new Backoff(this.options.backoffMinMs ?? 500, this.options.backoffMaxMs ?? 10_000);
    while (!signal.aborted) {
      const client = this.options.client();
      const batch = client === null ? null : spool.takeOldest();
      if (client === null || batch === null) {
        await pause(this.options.idleMs ?? 250, signal);
        continue;
      }
      try {
        const bytes = await readFile(batch.file);
        const answer = await ship(client, bytes, signal);
        await spool.acknowledge(batch);
        this.shipped.batches++;
        this.shipped.events += batch.count;
        if (backoff.consecutiveFailures > 0) log('info', `${name}.shipping_resumed`, { seq: batch.seq });
        backoff.reset();
        if (answer.duplicate) log('info', `${name}.batch_duplicate`, { seq: batch.seq });
      } catch (err) {
        if (signal.aborted) {
          spool.release();
          return;
        }
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
          // Removed by hand: nothing left to send.
          log('warn', `${name}.batch_missing`, { seq: batch.seq, file: batch.file });
          await spool.acknowledge(batch);
          continue;
        }
        if (err instanceof NodeApiError && REFUSED_FOR_GOOD.has(err.status)) {
          log('error', `${name}.batch_refused`, { seq: batch.seq, events: batch.count, error: errorText(err) });
          try {
            await spool.discard(batch);
            continue;
          } catch (e) {
            spool.release();
            log('warn', `${name}.spool_unwritable`, { dir: spool.dir, error: errorText(e) });
            await pause(backoff.next(), signal);
            continue;
          }
        }
        spool.release();
        // A busy control plane says when to come again (Retry-After); the backoff's jitter on top
        // keeps the nodes it turned away from coming back at once.
        const jitter = backoff.next();
        const wait = err instanceof NodeApiError && err.retryAfterMs !== null ? err.retryAfterMs + jitter : jitter;
        log('warn', `${name}.ship_failed`, {
          seq: batch.seq,
          waiting: spool.waiting,
          error: errorText(err),
          retryMs: wait,
        });
        await pause(wait, signal);
      }
    }
  }
}
