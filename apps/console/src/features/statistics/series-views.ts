import {
  CHART_COLORS,
  CHART_PALETTE,
  type Locale,
  SERIES_VALUES,
  STATISTICS_SERIES,
  type StatisticsSeries,
  type StatisticsSeriesType,
} from '@rampart/contract';
import { formatValue, type ValueKind } from './stat-format';

/**
 * How each series type is drawn: which of its values (SERIES_VALUES) are plotted, in what unit,
 * as lines or stacked bars, and in which colours (the pass and drop pair, else the palette).
 */
export interface SeriesView {
  readonly values: readonly string[];
  readonly kind: ValueKind;
  readonly chart: 'line' | 'bar';
  readonly stack?: boolean;
  /** Rates (bandwidth, QPS) are summed up by their peak, everything else by its total. */
  readonly summary: 'total' | 'peak';
}

const S = STATISTICS_SERIES;
export const SERIES_VIEWS: Readonly<Record<StatisticsSeriesType, SeriesView>> = {
  [S.traffic]: { values: ['bytesOut', 'bytesIn'], kind: 'bytes', chart: 'line', summary: 'total' },
  [S.passDrop]: { values: ['pass', 'drop'], kind: 'count', chart: 'line', summary: 'total' },
  [S.bandwidth]: { values: ['bandwidth'], kind: 'bitsPerSecond', chart: 'line', summary: 'peak' },
  [S.requests]: { values: ['requests'], kind: 'count', chart: 'line', summary: 'total' },
  [S.cache]: { values: ['hitRequests', 'missRequests'], kind: 'count', chart: 'line', summary: 'total' },
  [S.upstream]: { values: ['upstreamRequests', 'upstreamErrors'], kind: 'count', chart: 'line', summary: 'total' },
  [S.status]: {
    values: ['s2xx', 's3xx', 's4xx', 's5xx', 'sOther'],
    kind: 'count',
    chart: 'bar',
    stack: true,
    summary: 'total',
  },
  [S.qps]: { values: ['qps'], kind: 'perSecond', chart: 'line', summary: 'peak' },
  [S.blacklist]: { values: ['blacklist'], kind: 'count', chart: 'bar', summary: 'total' },
  [S.waf]: { values: ['waf'], kind: 'count', chart: 'bar', summary: 'total' },
};

/** The colour of a plotted value: pass green and drop red (spec part 2 §9), else the palette in order. */
export function seriesColor(key: string, index: number): string {
  if (key === 'pass') return CHART_COLORS.pass;
  if (key === 'drop') return CHART_COLORS.drop;
  return CHART_PALETTE[index % CHART_PALETTE.length] ?? CHART_PALETTE[0];
}

/** One plotted value: its key, the column in the points' values, and its sum or peak over the range. */
export interface PlottedValue {
  key: string;
  column: number;
  summary: number;
}

/** The values of `series` a view plots, with each one's total or peak; missing columns are left out. */
export function plottedValues(series: StatisticsSeries, view: SeriesView): PlottedValue[] {
  const keys = series.keys.length > 0 ? series.keys : (SERIES_VALUES[series.type as StatisticsSeriesType] ?? []);
  return view.values.flatMap((key) => {
    const column = keys.indexOf(key);
    if (column < 0) return [];
    const numbers = series.points.map((point) => point.values[column] ?? 0);
    const summary = view.summary === 'peak' ? Math.max(0, ...numbers) : numbers.reduce((a, b) => a + b, 0);
    return [{ key, column, summary }];
  });
}

/** True when every value of every point is 0: nothing to draw. */
export function isEmptySeries(series: StatisticsSeries): boolean {
  return series.points.every((point) => point.values.every((value) => value === 0));
}

/** The time of a point for people: the browser's time zone, the date only for daily points. */
export function formatPointTime(ms: number, stepMinutes: number, tag: string): string {
  const options: Intl.DateTimeFormatOptions =
    stepMinutes >= 1440
      ? { dateStyle: 'medium' }
      : { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit' };
  return new Intl.DateTimeFormat(tag, options).format(ms);
}

interface TooltipParam {
  axisValue?: number | string;
  marker?: string;
  seriesName?: string;
  value?: unknown;
}

/**
 * The ECharts option of a series: a time axis (drawn in the browser's time zone), values in the
 * view's unit scaled by 1000, a legend of the localised `labels`, and a tooltip formatted per locale.
 */
export function seriesOption(
  series: StatisticsSeries,
  view: SeriesView,
  plotted: readonly PlottedValue[],
  labels: readonly string[],
  locale: Locale,
  tag: string,
) {
  const format = (value: number) => formatValue(value, view.kind, locale);
  return {
    animation: false,
    color: plotted.map((value, index) => seriesColor(value.key, index)),
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    legend: { top: 0, data: [...labels] },
    tooltip: {
      trigger: 'axis',
      formatter: (params: TooltipParam | TooltipParam[]) => {
        const list = Array.isArray(params) ? params : [params];
        const time = formatPointTime(Number(list[0]?.axisValue ?? 0), series.minutesStep, tag);
        const rows = list.map((p) => {
          const value = Array.isArray(p.value) ? Number(p.value[1]) : Number(p.value);
          return `${p.marker ?? ''}${p.seriesName ?? ''}: ${format(value)}`;
        });
        return [time, ...rows].join('<br/>');
      },
    },
    xAxis: {
      type: 'time',
      axisLabel: { hideOverlap: true, formatter: (value: number) => formatPointTime(value, series.minutesStep, tag) },
    },
    yAxis: { type: 'value', axisLabel: { formatter: format } },
    series: plotted.map((value, index) => ({
      name: labels[index],
      type: view.chart,
      ...(view.stack ? { stack: 'total' } : {}),
      showSymbol: false,
      data: series.points.map((point) => [Date.parse(point.time), point.values[value.column] ?? 0]),
    })),
  };
}
