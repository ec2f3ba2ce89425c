import { type AggregateBatch, type EdgeEvent, MinuteAggregator } from '@rampart/contract';
import { edgeEvent } from './events.js';

/** Where a flood's requests land: a domain, a minute, and (optionally) the host they named. */
export interface FloodPlace {
  minute: number;
  domainId: number;
  host?: string;
}

/** Request `id` from `ip`, `ms` into the minute, refused by blacklist rule 4 (403, deny). */
export function refusedAt(place: FloodPlace, id: string, ip: string, ms: number): EdgeEvent {
  return edgeEvent({
    id,
    time: place.minute + ms,
    domainId: place.domainId,
    ip,
    ...(place.host === undefined ? {} : { host: place.host }),
    path: `/wp-login.php?${id}`,
    status: 403,
    fwKind: 'blacklist',
    fwRule: 4,
    fwAction: 'deny',
  });
}

/** The ids, among the logged events, of the flood's requests the node logged, in order. */
export interface FloodLog {
  passed: string;
  floods: readonly [string, string, string];
  /** Requests of other addresses, past the node's cap of one address a minute. */
  others: readonly string[];
}

/**
 * What a node's aggregator (one address a minute, a partial record every 15 s) makes of a flood
 * from `floodIp` refused by blacklist rule 4: the passed request and the first flood request, then
 * nginx's tally of 4,000 repeats to +20 s, then the minute closes (its collapsed records ship with
 * the close); the second flood request, 4,000 more to +40 s and the other addresses (a correction);
 * the third flood request, 4,397 more to +59 s (another correction).
 * Three batches, without their ids.
 */
export function collapsedFlood(
  place: FloodPlace,
  floodIp: string,
  logged: EdgeEvent[],
  log: FloodLog,
): Omit<AggregateBatch, 'batchId' | 'dropped'>[] {
  const aggregator = new MinuteAggregator({ collapseMax: 1, partialMs: 15_000 });
  const add = (id: string) => aggregator.add(logged.find((e) => e.id === id) as EdgeEvent);
  // nginx's tallies of the repeats it did not log.
  const tally = (count: number, last: number) =>
    aggregator.addRefusals({
      minute: place.minute,
      domainId: place.domainId,
      ip: floodIp,
      fwKind: 'blacklist',
      fwRule: 4,
      fwAction: 'deny',
      status: 403,
      count,
      bytesIn: count * 100,
      bytesOut: count * 200,
      last,
    });
  const [first, second, third] = log.floods;
  const taken: Omit<AggregateBatch, 'batchId' | 'dropped'>[] = [];
  add(log.passed);
  add(first);
  tally(4000, place.minute + 20_000);
  // The minute closes (its collapsed records go with the close); later lines and tallies of it are
  // corrections, each with its own records.
  aggregator.advance(place.minute + 65_000);
  taken.push(aggregator.take());
  add(second);
  tally(4000, place.minute + 40_000);
  for (const id of log.others) add(id);
  taken.push(aggregator.take(true));
  add(third);
  tally(4397, place.minute + 59_000);
  aggregator.closeAll();
  taken.push(aggregator.take());
  return taken;
}
