import {
  type AnyRoute,
  CHART_LABELS,
  geoRegion,
  type NetworkRate,
  type NetworkSum,
  type NetworkTopRow,
  networkStatisticsRoutes as n,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Flex, Row, Spin, Statistic, Table, type TableColumnsType, Typography } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../app/route-query';
import { localized } from '../../app/toast';
import { PageTitle } from '../../components/PageTitle';
import { LoadFailed } from '../../features/statistics/LoadFailed';
import { NoTraffic } from '../../features/statistics/NoTraffic';
import { StatisticsFilters } from '../../features/statistics/StatisticsFilters';
import { isEmptySeries, plottedValues, type SeriesView, seriesOption } from '../../features/statistics/series-views';
import { formatValue } from '../../features/statistics/stat-format';
import { type StatisticsBody, useStatisticsFilter } from '../../features/statistics/use-statistics-filter';
import { LOCALE_TAGS, useLocale } from '../../i18n';

const EChartView = lazy(() => import('../../features/statistics/EChartView'));

/** The page's first window: the last six hours (issue 22). */
const DEFAULT_HOURS = 6;
/** Rows of each top list (spec part 2 §7: tops send top=5). */
const TOP = 5;

/** Bits written out with the decimal prefixes (b, Kb, Mb …). */
function formatBits(bits: number, locale: ReturnType<typeof useLocale>[0]): string {
  // formatValue scales bits per second by 1000 and names the units: a sum drops the "ps".
  return formatValue(bits, 'bitsPerSecond', locale).replace(/ps$/, '');
}

/** The readable name of a key of a dimension (a country's name, an unknown value, a protocol). */
function useKeyName() {
  const { t } = useTranslation('statistics');
  const [locale] = useLocale();
  return (dimension: string, key: string) => {
    if (key === 'pass' || key === 'drop') return localized(CHART_LABELS[key]);
    if (dimension === 'country') return key === '' ? t('network.unknown') : (geoRegion(key)?.names[locale] ?? key);
    if (dimension === 'asn') return key === '0' ? t('network.unknownAsn') : `AS${key}`;
    if (dimension === 'ipProtocol') return key.toUpperCase();
    return key;
  };
}

/** Bit rates over the range, one line per key, drawn as the statistics pages draw their series. */
function RateChart({
  route,
  body,
  step,
  dimension,
  title,
}: {
  route: AnyRoute;
  body: StatisticsBody;
  step: number;
  dimension: string;
  title: string;
}) {
  const [locale] = useLocale();
  const name = useKeyName();
  const query = useQuery(routeQuery('user', route, { body: { ...body, minutesStep: step, top: TOP } } as never));
  const rate = (query.data as { data?: NetworkRate } | undefined)?.data;
  const series = useMemo(() => (rate ? { ...rate, type: 0 } : undefined), [rate]);
  const view = useMemo<SeriesView>(
    () => ({ values: rate?.keys ?? [], kind: 'bitsPerSecond', chart: 'line', summary: 'peak' }),
    [rate],
  );
  const plotted = useMemo(() => (series ? plottedValues(series, view) : []), [series, view]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the names follow the current locale
  const labels = useMemo(() => plotted.map((p) => name(dimension, p.key)), [plotted, dimension, locale]);
  const option = useMemo(
    () => (series ? seriesOption(series, view, plotted, labels, locale, LOCALE_TAGS[locale]) : undefined),
    [series, view, plotted, labels, locale],
  );
  let content: React.ReactNode;
  if (query.isLoading) content = <Spin style={{ display: 'block', margin: '48px auto' }} />;
  else if (query.isError || !series || !option) content = <LoadFailed onRetry={() => query.refetch()} />;
  else if (isEmptySeries(series)) content = <NoTraffic body={body} />;
  else
    content = (
      <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
        <EChartView option={option} height={260} label={title} />
      </Suspense>
    );
  return (
    <Card title={title} size="small" data-testid={`network-rate-${dimension}`}>
      {content}
    </Card>
  );
}

/** A top list (or the protocols' breakdown): passed and dropped bits and packets per value. */
function NetworkTop({
  route,
  body,
  dimension,
  title,
}: {
  route: AnyRoute;
  body: StatisticsBody;
  dimension: string;
  title: string;
}) {
  const { t } = useTranslation('statistics');
  const [locale] = useLocale();
  const name = useKeyName();
  const query = useQuery(routeQuery('user', route, { body: { ...body, top: TOP } } as never));
  const rows = (query.data as { data?: NetworkTopRow[] } | undefined)?.data ?? [];
  const bits = (value: number) => formatBits(value, locale);
  const columns: TableColumnsType<NetworkTopRow> = [
    {
      title: t(`network.keys.${dimension}` as 'network.keys.ip'),
      dataIndex: 'key',
      ellipsis: true,
      // An ASN with the organisation the operator's ASN database names: "AS13335 Cloudflare, Inc.".
      render: (key: string, row) => (row.name ? `${name(dimension, key)} ${row.name}` : name(dimension, key)),
    },
    { title: t('network.dropBits'), dataIndex: 'dropBits', align: 'right', width: 100, render: bits },
    { title: t('network.passBits'), dataIndex: 'passBits', align: 'right', width: 100, render: bits },
    {
      title: t('network.dropPackets'),
      dataIndex: 'dropPackets',
      align: 'right',
      width: 100,
      render: (v: number) => formatValue(v, 'count', locale),
    },
  ];
  return (
    <Card title={title} size="small" data-testid={`network-top-${dimension}`}>
      <Table<NetworkTopRow>
        size="small"
        rowKey="key"
        columns={columns}
        dataSource={rows}
        loading={query.isLoading}
        pagination={false}
        locale={{
          emptyText: query.isError ? (
            <LoadFailed onRetry={() => query.refetch()} />
          ) : query.isLoading ? (
            ' '
          ) : (
            <NoTraffic body={body} />
          ),
        }}
      />
    </Card>
  );
}

/** Passed and dropped bits over the range. */
function SumCard({ body }: { body: StatisticsBody }) {
  const { t } = useTranslation('statistics');
  const [locale] = useLocale();
  const query = useQuery(routeQuery('user', n.userNetworkOutcomesSumBits, { body } as never));
  const sum = (query.data as { data?: NetworkSum } | undefined)?.data;
  return (
    <Card size="small" title={t('network.sum')} data-testid="network-sum">
      {query.isError ? (
        <LoadFailed onRetry={() => query.refetch()} />
      ) : (
        <Flex gap={48} wrap>
          {(['drop', 'pass'] as const).map((o) => (
            <Statistic
              key={o}
              loading={query.isLoading}
              title={localized(CHART_LABELS[o])}
              value={sum ? formatBits(sum[`${o}Bits`], locale) : ''}
            />
          ))}
          <Typography.Text type="secondary" style={{ alignSelf: 'end' }}>
            {t('network.packets', {
              drop: formatValue(sum?.dropPackets ?? 0, 'count', locale),
              pass: formatValue(sum?.passPackets ?? 0, 'count', locale),
            })}
          </Typography.Text>
        </Flex>
      )}
    </Card>
  );
}

/** The tops and breakdowns, in the page's order, with their widths on a wide screen. */
const TOPS = [
  { route: n.userNetworkCountriesTops, dimension: 'country', title: 'network.countries', xl: 12 },
  { route: n.userNetworkIpsTops, dimension: 'ip', title: 'network.ips', xl: 12 },
  { route: n.userNetworkAsnsTops, dimension: 'asn', title: 'network.asns', xl: 12 },
  { route: n.userNetworkIpProtocolsBits, dimension: 'ipProtocol', title: 'network.protocols', xl: 12 },
  { route: n.userNetworkTcpFlagsTops, dimension: 'tcpFlags', title: 'network.tcpFlags', xl: 24 },
] as const;
/** The breakdowns' bit rates. */
const RATES = [
  { route: n.userNetworkIpProtocolsAvgBitRate, dimension: 'ipProtocol', title: 'network.protocolRate' },
  { route: n.userNetworkTcpFlagsAvgBitRate, dimension: 'tcpFlags', title: 'network.tcpFlagsRate' },
] as const;

/**
 * `/user/dataAnalysis/l4AttackAnalysis`: what the kernel of the nodes passed and dropped on the
 * customer's layer-4 ports (routes/network-statistics.ts), the last six hours at first: the bits
 * passed and dropped, their rates over time, the top source countries, addresses and ASNs, the IP
 * protocols and the TCP flag combinations.
 */
export function L4AttackAnalysisPage() {
  const { t } = useTranslation('shell');
  const { t: s } = useTranslation('statistics');
  const filter = useStatisticsFilter(DEFAULT_HOURS);
  const { body, step } = filter;
  return (
    <>
      <PageTitle>{t('menu.l4AttackAnalysis')}</PageTitle>
      <StatisticsFilters filter={filter} />
      <Row gutter={[16, 16]}>
        <Col span={24}>
          <SumCard body={body} />
        </Col>
        <Col span={24}>
          <RateChart
            route={n.userNetworkOutcomesAvgBitRate}
            body={body}
            step={step}
            dimension="outcome"
            title={s('network.rate')}
          />
        </Col>
        {TOPS.map(({ route, dimension, title, xl }) => (
          <Col key={dimension} xs={24} xl={xl}>
            <NetworkTop route={route} body={body} dimension={dimension} title={s(title)} />
          </Col>
        ))}
        {RATES.map(({ route, dimension, title }) => (
          <Col key={dimension} xs={24} xl={12}>
            <RateChart route={route} body={body} step={step} dimension={dimension} title={s(title)} />
          </Col>
        ))}
      </Row>
    </>
  );
}
