import {
  DASHBOARD_COLUMNS,
  DASHBOARD_INTERVALS,
  type DashboardWidget,
  QPS_STEP_MINUTES,
  STATISTICS_SERIES,
  type StatisticsSeriesType,
} from '@rampart/contract';

export type WidgetKind = DashboardWidget['kind'];

/** Widths and heights the editor offers (columns of 24, rows). */
export const WIDGET_WIDTHS = [4, 6, 8, 12, 16, 24] as const;
export const WIDGET_HEIGHTS = [2, 3, 4, 5, 6, 8] as const;

/** The size a widget gets when added. */
export const NEW_WIDGET_SIZE: Readonly<Record<WidgetKind, { w: number; h: number }>> = {
  card: { w: 8, h: 2 },
  series: { w: 12, h: 4 },
  top: { w: 12, h: 4 },
};

/** The widgets in reading order: by row, then column. */
export function readingOrder(widgets: readonly DashboardWidget[]): DashboardWidget[] {
  return [...widgets].sort((a, b) => a.y - b.y || a.x - b.x);
}

/**
 * Places widgets in their order left to right, a new row when the next does not fit in the 24
 * columns, each row as tall as its tallest widget. The editor keeps an order and sizes; this makes
 * the x and y the server stores. A layout made this way (the default) comes back unchanged.
 */
export function flowLayout(widgets: readonly DashboardWidget[]): DashboardWidget[] {
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  return widgets.map((widget) => {
    const w = Math.min(widget.w, DASHBOARD_COLUMNS);
    if (x + w > DASHBOARD_COLUMNS) {
      x = 0;
      y += rowHeight;
      rowHeight = 0;
    }
    const placed = { ...widget, w, x, y };
    x += w;
    rowHeight = Math.max(rowHeight, widget.h);
    return placed;
  });
}

/** The widgets with the one at `index` moved one place earlier (-1) or later (+1), laid out again. */
export function moveWidget(widgets: readonly DashboardWidget[], index: number, delta: -1 | 1): DashboardWidget[] {
  const target = index + delta;
  if (target < 0 || target >= widgets.length) return [...widgets];
  const next = [...widgets];
  const [moved] = next.splice(index, 1);
  if (moved) next.splice(target, 0, moved);
  return flowLayout(next);
}

/** The widgets with the one at `index` resized, laid out again. */
export function resizeWidget(
  widgets: readonly DashboardWidget[],
  index: number,
  size: Partial<Pick<DashboardWidget, 'w' | 'h'>>,
): DashboardWidget[] {
  return flowLayout(widgets.map((widget, i) => (i === index ? { ...widget, ...size } : widget)));
}

export function removeWidget(widgets: readonly DashboardWidget[], index: number): DashboardWidget[] {
  return flowLayout(widgets.filter((_, i) => i !== index));
}

/** The widgets with a new one of this kind and type at the end. */
export function addWidget(widgets: readonly DashboardWidget[], kind: WidgetKind, type: number): DashboardWidget[] {
  return flowLayout([...widgets, { kind, type, x: 0, y: 0, ...NEW_WIDGET_SIZE[kind] }]);
}

const S = STATISTICS_SERIES;
/** Minutes per point of a dashboard series (spec part 2 §9: 15 for traffic, bandwidth, requests, status; security 60). */
export const DASHBOARD_SERIES_STEP: Readonly<Record<StatisticsSeriesType, number>> = {
  [S.traffic]: DASHBOARD_INTERVALS.traffic,
  [S.bandwidth]: DASHBOARD_INTERVALS.bandwidth,
  [S.requests]: DASHBOARD_INTERVALS.request,
  [S.status]: DASHBOARD_INTERVALS.statusCode,
  [S.cache]: DASHBOARD_INTERVALS.traffic,
  [S.upstream]: DASHBOARD_INTERVALS.request,
  [S.qps]: QPS_STEP_MINUTES,
  [S.passDrop]: DASHBOARD_INTERVALS.security,
  [S.blacklist]: DASHBOARD_INTERVALS.security,
  [S.waf]: DASHBOARD_INTERVALS.security,
};
