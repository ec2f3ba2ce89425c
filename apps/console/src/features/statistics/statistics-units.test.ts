import { CHART_COLORS, CHART_PALETTE, DEFAULT_DASHBOARD_WIDGETS } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { series } from '../../test/statistics';
import { addWidget, flowLayout, moveWidget, removeWidget, resizeWidget } from './dashboard-layout';
import { plottedValues, SERIES_VIEWS, seriesColor, seriesOption } from './series-views';
import { formatValue } from './stat-format';
import { bucketEnd, resolveRange, stepFor, stepsFor, thisMonth } from './time-range';

describe('statistic values', () => {
  it('scale bytes and bit rates by 1000 and group counts per locale', () => {
    expect(formatValue(999, 'bytes', 'en_US')).toBe('999.00 Byte');
    expect(formatValue(1_500_000, 'bytes', 'en_US')).toBe('1.50 MB');
    expect(formatValue(1_024, 'bytes', 'en_US')).toBe('1.02 KB');
    expect(formatValue(2_500_000_000, 'bitsPerSecond', 'en_US')).toBe('2.50 Gbps');
    expect(formatValue(1_234_567, 'count', 'en_US')).toBe('1,234,567');
    expect(formatValue(0.125, 'percent', 'zh_CN')).toBe('12.5%');
  });
});

describe('time ranges', () => {
  const now = Date.parse('2026-11-24T05:07:31Z');
  it('end the last N hours with the current 5-minute bucket', () => {
    expect(new Date(bucketEnd(now)).toISOString()).toBe('2026-11-24T05:10:00.000Z');
    expect(resolveRange({ hours: 1 }, now)).toEqual({
      startTime: '2026-11-24T04:10:00.000Z',
      endTime: '2026-11-24T05:10:00.000Z',
    });
  });
  it('start "this month" at local midnight of the first', () => {
    const range = thisMonth(now);
    const start = 'start' in range ? new Date(range.start) : new Date(0);
    expect([start.getDate(), start.getHours(), start.getMonth()]).toEqual([1, 0, new Date(now).getMonth()]);
  });
  it('keep a series within 2000 points by taking a coarser step', () => {
    const month = resolveRange({ hours: 720 }, now);
    expect(stepsFor(month)[0]).toBe(30);
    expect(stepFor(month, 5)).toBe(30);
    expect(stepFor(month, 60)).toBe(60);
    expect(stepFor(resolveRange({ hours: 1 }, now))).toBe(5);
  });
});

describe('dashboard layouts', () => {
  it('lay the default out as it is', () => {
    expect(flowLayout(DEFAULT_DASHBOARD_WIDGETS)).toEqual(DEFAULT_DASHBOARD_WIDGETS);
  });
  it('flow widgets into rows of 24 columns as they are added, resized, moved and removed', () => {
    let widgets = addWidget([], 'card', 3);
    widgets = addWidget(widgets, 'series', 1);
    expect(widgets.map(({ x, y }) => [x, y])).toEqual([
      [0, 0],
      [8, 0],
    ]);
    widgets = resizeWidget(widgets, 0, { w: 16 });
    expect(widgets[1]).toMatchObject({ x: 0, y: 2, w: 12, h: 4 });
    widgets = moveWidget(widgets, 1, -1);
    expect(widgets.map(({ kind, x, y }) => [kind, x, y])).toEqual([
      ['series', 0, 0],
      ['card', 0, 4],
    ]);
    expect(removeWidget(widgets, 0)).toEqual([{ kind: 'card', type: 3, x: 0, y: 0, w: 16, h: 2 }]);
  });
});

describe('series charts', () => {
  it('colour pass green and drop red, everything else from the palette', () => {
    expect(seriesColor('pass', 0)).toBe(CHART_COLORS.pass);
    expect(seriesColor('drop', 1)).toBe(CHART_COLORS.drop);
    expect(seriesColor('bytesOut', 0)).toBe(CHART_PALETTE[0]);
    expect(seriesColor('x', 21)).toBe(CHART_PALETTE[0]);
  });
  it('sum totals, take peaks of rates, and format the axis and tooltip in the unit', () => {
    const traffic = series(1, 5, '2026-11-24T04:00:00Z', [
      [1000, 1],
      [2000, 2],
    ]);
    const plotted = plottedValues(traffic, SERIES_VIEWS[1]);
    expect(plotted.map((p) => p.summary)).toEqual([3000, 3]);
    const bandwidth = series(3, 5, '2026-11-24T04:00:00Z', [[5_000_000], [8_000_000]]);
    expect(plottedValues(bandwidth, SERIES_VIEWS[3])[0]?.summary).toBe(8_000_000);

    const option = seriesOption(traffic, SERIES_VIEWS[1], plotted, ['Out', 'In'], 'en_US', 'en-US');
    expect(option.yAxis.axisLabel.formatter(2_000_000)).toBe('2.00 MB');
    expect(option.series[0]?.data).toEqual([
      [Date.parse('2026-11-24T04:00:00Z'), 1000],
      [Date.parse('2026-11-24T04:05:00Z'), 2000],
    ]);
    const tip = option.tooltip.formatter([
      { axisValue: Date.parse('2026-11-24T04:05:00Z'), seriesName: 'Out', value: [0, 2000] },
    ]);
    const local = new Intl.DateTimeFormat('en-US', {
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }).format(Date.parse('2026-11-24T04:05:00Z'));
    expect(tip).toBe(`${local}<br/>Out: 2.00 KB`);
  });
});
