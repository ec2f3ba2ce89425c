import {
  QPS_POLL_MS,
  REPORT_INTERVAL_DEFAULT,
  STATISTICS_POINTS_MAX,
  STATISTICS_STEPS,
  TIME_BUCKET_MINUTES,
} from '@rampart/contract';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const BUCKET_MS = TIME_BUCKET_MINUTES * MINUTE_MS;

/** The "last N hours" choices of a statistics page's time range. */
export const RANGE_HOURS = [1, 3, 6, 12, 24, 72, 168, 720] as const;
export type RangeHours = (typeof RANGE_HOURS)[number];

/** A time range: the last N hours (moving with the clock) or fixed times (a custom range, this month). */
export type RangeChoice = { hours: number } | { start: string; end: string };

/** A resolved range as the statistics calls take it (ISO times). */
export interface TimeRange {
  startTime: string;
  endTime: string;
}

/** The end of the 5-minute bucket `ms` falls in (spec part 1 §9: times in 5-minute buckets). */
export function bucketEnd(ms: number): number {
  return Math.ceil(ms / BUCKET_MS) * BUCKET_MS;
}

/** The range a choice stands for at `now`: the last N hours end with the current 5-minute bucket. */
export function resolveRange(choice: RangeChoice, now: number): TimeRange {
  if ('start' in choice) return { startTime: choice.start, endTime: choice.end };
  const end = bucketEnd(now);
  return { startTime: new Date(end - choice.hours * HOUR_MS).toISOString(), endTime: new Date(end).toISOString() };
}

/** "This month": from the first day of the month at midnight in the browser's time zone until now. */
export function thisMonth(now: number): RangeChoice {
  const today = new Date(now);
  const first = new Date(today.getFullYear(), today.getMonth(), 1);
  return { start: first.toISOString(), end: new Date(bucketEnd(now)).toISOString() };
}

/** The steps that keep a range's series within STATISTICS_POINTS_MAX points. */
export function stepsFor(range: TimeRange): number[] {
  const minutes = (Date.parse(range.endTime) - Date.parse(range.startTime)) / MINUTE_MS;
  return STATISTICS_STEPS.filter((step) => minutes / step <= STATISTICS_POINTS_MAX);
}

/** The chosen report interval, or the finest allowed one when the range is too long for it. */
export function stepFor(range: TimeRange, wanted: number = REPORT_INTERVAL_DEFAULT): number {
  const allowed = stepsFor(range);
  return allowed.find((step) => step >= wanted) ?? allowed.at(-1) ?? STATISTICS_STEPS.at(-1) ?? wanted;
}

/** How often a range that moves with the clock refreshes (the QPS view's poll, spec part 2 §4). */
export const MOVING_RANGE_REFRESH_MS = QPS_POLL_MS;
