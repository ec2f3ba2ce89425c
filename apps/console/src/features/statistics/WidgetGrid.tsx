import {
  DASHBOARD_COLUMNS,
  type DashboardWidget,
  STATISTICS_TOPS,
  type StatisticsSeriesType,
  TOP_COUNTS,
} from '@rampart/contract';
import { Grid } from 'antd';
import type { ReactNode } from 'react';
import { DASHBOARD_SERIES_STEP } from './dashboard-layout';
import { SeriesChart } from './SeriesChart';
import { StatCard } from './StatCard';
import { TopList } from './TopList';
import { stepFor } from './time-range';
import type { StatisticsBody } from './use-statistics-filter';

/** Height of one grid row in pixels, and the gap between widgets. */
export const ROW_HEIGHT = 80;
const GAP = 16;
/** What a card's title bar, padding and a series' written totals take from a widget's height. */
const CHROME = 110;

const WAF_TOPS: readonly number[] = [
  STATISTICS_TOPS.attackMethods,
  STATISTICS_TOPS.attackDomains,
  STATISTICS_TOPS.attackIPs,
];

interface WidgetGridProps {
  widgets: readonly DashboardWidget[];
  body: StatisticsBody;
  /** The editor's controls of the widget at `index`, shown in its title bar. */
  controls?: (index: number) => ReactNode;
}

/**
 * A dashboard layout on its 24-column grid: each widget at its column and row, as wide and tall as
 * it says. On a narrow screen the widgets stack in reading order at full width.
 */
export function WidgetGrid({ widgets, body, controls }: WidgetGridProps) {
  const screens = Grid.useBreakpoint();
  // Phones and small tablets stack the widgets; before the breakpoints are known, the grid is drawn.
  const wide = !(screens.xs || (screens.sm && !screens.md));
  return (
    <div
      data-testid="widget-grid"
      style={{
        display: 'grid',
        gridTemplateColumns: wide ? `repeat(${DASHBOARD_COLUMNS}, minmax(0, 1fr))` : '1fr',
        gridAutoRows: ROW_HEIGHT,
        gap: GAP,
      }}
    >
      {widgets.map((widget, index) => (
        <div
          // A layout may hold the same widget twice: its place tells them apart.
          key={`${widget.kind}-${widget.type}-${widget.x}-${widget.y}`}
          data-testid="widget"
          data-kind={widget.kind}
          data-type={widget.type}
          style={{
            gridColumn: wide ? `${widget.x + 1} / span ${widget.w}` : '1 / -1',
            gridRow: wide ? `${widget.y + 1} / span ${widget.h}` : `span ${widget.h}`,
            minWidth: 0,
          }}
        >
          <Widget widget={widget} body={body} extra={controls?.(index)} />
        </div>
      ))}
    </div>
  );
}

function Widget({ widget, body, extra }: { widget: DashboardWidget; body: StatisticsBody; extra: ReactNode }) {
  const inner = widget.h * ROW_HEIGHT + (widget.h - 1) * GAP - CHROME;
  const style = { height: '100%', overflow: 'hidden' } as const;
  if (widget.kind === 'card') return <StatCard type={widget.type} body={body} extra={extra} style={style} />;
  if (widget.kind === 'top') {
    const top = WAF_TOPS.includes(widget.type) ? TOP_COUNTS.waf : TOP_COUNTS.default;
    return (
      <TopList type={widget.type} body={body} top={top} extra={extra} style={style} scrollY={Math.max(60, inner)} />
    );
  }
  const type = widget.type as StatisticsSeriesType;
  const step = stepFor(body, DASHBOARD_SERIES_STEP[type]);
  return <SeriesChart type={type} body={body} step={step} extra={extra} style={style} height={Math.max(80, inner)} />;
}
