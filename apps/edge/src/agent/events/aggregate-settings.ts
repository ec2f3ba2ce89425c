import type { EventWorkerSettings } from './event-worker.js';

/** The agent's aggregate options (part of agent.ts AgentOptions). */
export interface AggregateOptions {
  /**
   * Ship the statistics as minute aggregates (POST /aggregates, aggregate-feed.ts), the events for
   * the logs only; on unless false (the control plane merges them into what the statistics read).
   */
  eventAggregates?: boolean;
  /**
   * With eventAggregates: nginx counts a flood's repeated refusals instead of logging each
   * (rampart.refusals) and the events' process drains them into the aggregates; on unless false.
   * A tally drained, not yet spooled, is lost if that process is killed (a log line is read again).
   */
  refusalTallies?: boolean;
  /** With eventAggregates: seconds between partial cuts of the open minutes (aggregate-feed.ts: 15 unless given; 0: none). */
  aggregatePartialSeconds?: number;
}

/**
 * The event worker's aggregate settings from the agent's options: the aggregates on unless
 * `eventAggregates` is false; with them, nginx's refusal tallies unless `refusalTallies` is false
 * (`admin`: nginx's admin socket and its secret's file) and the partial interval when given.
 */
export function aggregateSettings(
  options: AggregateOptions,
  admin: { socketPath: string; secretFile: string },
): Pick<EventWorkerSettings, 'aggregates' | 'refusals' | 'partialMs'> {
  if (options.eventAggregates === false) return {};
  return {
    aggregates: true,
    ...(options.refusalTallies !== false ? { refusals: admin } : {}),
    ...(options.aggregatePartialSeconds !== undefined ? { partialMs: options.aggregatePartialSeconds * 1000 } : {}),
  };
}
