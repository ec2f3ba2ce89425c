import { REPORT_INTERVAL_DEFAULT } from '@rampart/contract';
import { useEffect, useMemo, useState } from 'react';
import { MOVING_RANGE_REFRESH_MS, type RangeChoice, resolveRange, stepFor, type TimeRange } from './time-range';

/** What a statistics call is about, as its body takes it (zones and customer: the operator's only). */
export interface StatisticsScope {
  siteIDs?: number[];
  domainIDs?: number[];
  domainTags?: string[];
  zoneIDs?: number[];
  userID?: number;
}

/** A statistics call's filter: the scope and the time range. */
export type StatisticsBody = StatisticsScope & TimeRange;

export interface StatisticsFilterState {
  range: RangeChoice;
  siteIDs: number[];
  domainIDs: number[];
  /** The domain-tag filter: the domains carrying any of these (empty: all). */
  domainTags: string[];
  zoneIDs: number[];
  userID: number | undefined;
  /** The report interval chosen, in minutes (the series use a coarser one when the range needs it). */
  interval: number;
}

/** The clock, ticking every `periodMs` while `moving` (a range that ends now refreshes its calls). */
function useNow(moving: boolean, periodMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(() => setNow(Date.now()), periodMs);
    return () => clearInterval(timer);
  }, [moving, periodMs]);
  return now;
}

/**
 * A statistics page's filter state (spec part 2 §3, §4): sites, domains, domain tags, zones and customer (the
 * last two the operator's), the time range (the last `defaultHours` at first) and the report
 * interval. `body` is what every call of the page sends: empty choices are left out (all).
 */
export function useStatisticsFilter(defaultHours: number, interval: number = REPORT_INTERVAL_DEFAULT) {
  const [state, setState] = useState<StatisticsFilterState>({
    range: { hours: defaultHours },
    siteIDs: [],
    domainIDs: [],
    domainTags: [],
    zoneIDs: [],
    userID: undefined,
    interval,
  });
  const now = useNow('hours' in state.range, MOVING_RANGE_REFRESH_MS);
  const range = useMemo(() => resolveRange(state.range, now), [state.range, now]);
  const body = useMemo<StatisticsBody>(
    () => ({
      ...(state.siteIDs.length > 0 ? { siteIDs: state.siteIDs } : {}),
      ...(state.domainIDs.length > 0 ? { domainIDs: state.domainIDs } : {}),
      ...(state.domainTags.length > 0 ? { domainTags: state.domainTags } : {}),
      ...(state.zoneIDs.length > 0 ? { zoneIDs: state.zoneIDs } : {}),
      ...(state.userID !== undefined ? { userID: state.userID } : {}),
      ...range,
    }),
    [state.siteIDs, state.domainIDs, state.domainTags, state.zoneIDs, state.userID, range],
  );
  return {
    state,
    range,
    body,
    /** The series step: the chosen interval, coarser when the range would give too many points. */
    step: stepFor(range, state.interval),
    update: (change: Partial<StatisticsFilterState>) => setState((previous) => ({ ...previous, ...change })),
  };
}

export type StatisticsFilter = ReturnType<typeof useStatisticsFilter>;
