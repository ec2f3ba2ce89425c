import { CHART_LABELS, type StatisticsSeriesType } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Flex, Spin, Typography } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { localized } from '../../app/toast';
import { LOCALE_TAGS, useLocale } from '../../i18n';
import { LoadFailed } from './LoadFailed';
import { NoTraffic } from './NoTraffic';
import { isEmptySeries, plottedValues, SERIES_VIEWS, seriesOption } from './series-views';
import { formatValue } from './stat-format';
import { seriesValueLabel } from './stat-labels';
import { seriesQuery } from './statistics-queries';
import type { StatisticsBody } from './use-statistics-filter';
import { useStatisticsTier } from './use-statistics-tier';

// ECharts comes with the first chart drawn: the pages load without it and the shell never does.
const EChartView = lazy(() => import('./EChartView'));

interface SeriesChartProps {
  type: StatisticsSeriesType;
  body: StatisticsBody;
  /** Minutes per point. */
  step: number;
  /** Height of the drawing in pixels. */
  height?: number;
  /** A title other than the series' own (e.g. with the range it covers). */
  title?: string;
  /** Controls beside the title (the dashboard editor's). */
  extra?: React.ReactNode;
  style?: React.CSSProperties;
}

/**
 * A time series in a card (spec part 2 §9): its totals (or peaks) written out, the chart drawn in
 * the browser's time zone, a spinner while it loads, a retry when it failed, and why it is empty.
 */
export function SeriesChart({ type, body, step, height = 260, title, extra, style }: SeriesChartProps) {
  const { t } = useTranslation('statistics');
  const [locale] = useLocale();
  const tier = useStatisticsTier();
  const query = useQuery(seriesQuery(tier, body, type, step));
  const view = SERIES_VIEWS[type];
  const series = query.data?.data;
  const plotted = useMemo(() => (series ? plottedValues(series, view) : []), [series, view]);
  // The pass and drop legends are the spec's own (CHART_LABELS); the locale is a dependency for them.
  // biome-ignore lint/correctness/useExhaustiveDependencies: localized() reads the current locale
  const labels = useMemo(
    () =>
      plotted.map(({ key }) =>
        key === 'pass' || key === 'drop' ? localized(CHART_LABELS[key]) : seriesValueLabel(t, key),
      ),
    [plotted, t, locale],
  );
  const option = useMemo(
    () => (series ? seriesOption(series, view, plotted, labels, locale, LOCALE_TAGS[locale]) : undefined),
    [series, view, plotted, labels, locale],
  );
  const heading = title ?? t(`series.${type}` as 'series.1');

  let content: React.ReactNode;
  if (query.isLoading) content = <Spin style={{ display: 'block', margin: '48px auto' }} />;
  else if (query.isError || !series || !option) content = <LoadFailed onRetry={() => query.refetch()} />;
  else if (isEmptySeries(series)) content = <NoTraffic body={body} />;
  else {
    content = (
      <Flex vertical gap={8} style={{ height: '100%' }}>
        <Flex gap={16} wrap data-testid="series-summary">
          {plotted.map((value, index) => (
            <Typography.Text key={value.key}>
              <Typography.Text type="secondary">
                {view.summary === 'peak' ? t('peakOf', { name: labels[index] }) : labels[index]}:{' '}
              </Typography.Text>
              {formatValue(value.summary, view.kind, locale)}
            </Typography.Text>
          ))}
        </Flex>
        <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
          <EChartView option={option} height={height} label={heading} />
        </Suspense>
      </Flex>
    );
  }
  return (
    <Card title={heading} extra={extra} size="small" style={style} data-testid={`series-${type}`}>
      {content}
    </Card>
  );
}
