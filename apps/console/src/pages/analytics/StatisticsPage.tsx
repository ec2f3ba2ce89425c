import {
  DASHBOARD_CARD_IDS,
  DEFAULT_TIME_INTERVAL_HOURS,
  STATISTICS_SERIES,
  STATISTICS_TOPS,
  TOP_COUNTS,
} from '@rampart/contract';
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../components/PageTitle';
import { DomainTotals } from '../../features/statistics/DomainTotals';
import { SeriesChart } from '../../features/statistics/SeriesChart';
import { StatCard } from '../../features/statistics/StatCard';
import { StatisticsFilters } from '../../features/statistics/StatisticsFilters';
import { TopList } from '../../features/statistics/TopList';
import { UpstreamTimes } from '../../features/statistics/UpstreamTimes';
import { useStatisticsFilter } from '../../features/statistics/use-statistics-filter';

const CARDS = [DASHBOARD_CARD_IDS.requestInfo, DASHBOARD_CARD_IDS.ipInfo, DASHBOARD_CARD_IDS.statusInfo];
const S = STATISTICS_SERIES;
const SERIES = [S.traffic, S.bandwidth, S.requests, S.cache, S.upstream, S.status, S.qps] as const;
const T = STATISTICS_TOPS;
const TOPS = [T.url, T.country, T.city, T.referer, T.userAgent, T.status, T.method, T.httpVersion, T.ip, T.domain];

/**
 * `/{tier}/dataAnalysis/statistics`: the traffic of the caller's sites (the operator's: of its
 * zones and customers) over a time range, the last hour at first (spec part 2 §4): request, IP and
 * status cards, the time series at the report interval, the origin's response time percentiles,
 * the top lists and the totals per domain.
 */
export function StatisticsPage() {
  const { t } = useTranslation('shell');
  const filter = useStatisticsFilter(DEFAULT_TIME_INTERVAL_HOURS.userStatistics);
  const { body, step } = filter;
  return (
    <>
      <PageTitle>{t('menu.statistics')}</PageTitle>
      <StatisticsFilters filter={filter} />
      <Row gutter={[16, 16]}>
        {CARDS.map((type) => (
          <Col key={type} xs={24} xl={8}>
            <StatCard type={type} body={body} style={{ height: '100%' }} />
          </Col>
        ))}
        {SERIES.map((type) => (
          <Col key={type} xs={24} xl={12}>
            <SeriesChart type={type} body={body} step={step} />
          </Col>
        ))}
        <Col xs={24} xl={12}>
          <UpstreamTimes body={body} />
        </Col>
        {TOPS.map((type) => (
          <Col key={type} xs={24} xl={12}>
            <TopList type={type} body={body} top={TOP_COUNTS.default} />
          </Col>
        ))}
        <Col span={24}>
          <DomainTotals body={body} />
        </Col>
      </Row>
    </>
  );
}
