import type { L4PortRules } from '@rampart/contract';
import { pause } from '../backoff.js';
import { EventShipper } from '../events/event-shipper.js';
import { errorText, type Logger } from '../log.js';
import type { NodeClient } from '../node-api/node-client.js';
import { L4CounterSpool } from './l4-counter-spool.js';
import { L4CounterReader, L4MinuteAccumulator } from './l4-counters.js';

/**
 * The layer-4 counters from the kernel to the control plane (docs/decisions.md "Layer-4
 * counters"): the reader reads the agent's table every few seconds, the readings are summed per
 * minute, each ended minute is spooled as one batch, and the events' shipper (at least once,
 * duplicates counted once by the control plane) ships the spool.
 */
export interface L4CounterWorkerOptions {
  /** The spool's directory (under the agent's state directory). */
  dir: string;
  /** The ports of the document the firewall enforces (L4Firewall.applied). */
  ports: () => readonly L4PortRules[];
  client: () => NodeClient | null;
  log: Logger;
  signal: AbortSignal;
  nft?: readonly string[];
  intervalMs?: number;
  now?: () => number;
}

export async function runL4Counters(options: L4CounterWorkerOptions): Promise<void> {
  const spool = new L4CounterSpool(options.dir);
  await spool.open();
  const now = options.now ?? Date.now;
  const minutes = new L4MinuteAccumulator();
  const reader = new L4CounterReader({
    nft: options.nft,
    ports: options.ports,
    now,
  });
  const shipper = new EventShipper({
    spool,
    client: options.client,
    log: options.log,
    signal: options.signal,
    name: 'l4counters',
    idleMs: 1000,
    ship: (client, bytes, signal) => client.shipL4Counters(bytes, signal),
  });
  const reading = (async () => {
    const interval = options.intervalMs ?? 5000;
    while (!options.signal.aborted) {
      try {
        minutes.add(await reader.poll());
        const ended = minutes.take(Math.floor(now() / 60_000) * 60);
        if (ended.length > 0) await spool.append(ended);
      } catch (err) {
        options.log('warn', 'l4.counters_failed', { error: errorText(err) });
      }
      // pause() takes its abort listener off the agent's long-lived signal when the time is up;
      // one left behind per reading would pile up (MaxListenersExceededWarning, then a leak).
      await pause(interval, options.signal);
    }
    // What the current minute counted so far goes with the agent's stop.
    const rest = minutes.take(null);
    if (rest.length > 0) await spool.append(rest).catch(() => {});
  })();
  await Promise.all([reading, shipper.run()]);
}
