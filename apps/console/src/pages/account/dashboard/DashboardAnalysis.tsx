import {
  BLACKLIST_WAF_STEP_MINUTES,
  DASHBOARD_CARD_IDS,
  DASHBOARD_INTERVALS,
  STATISTICS_SERIES,
  STATISTICS_TOPS,
  type StatisticsSeriesType,
  TOP_COUNTS,
} from '@rampart/contract';
import { Card, Col, Flex, Row, Segmented, Tabs } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SeriesChart } from '../../../features/statistics/SeriesChart';
import { StatCard } from '../../../features/statistics/StatCard';
import { TopList } from '../../../features/statistics/TopList';
import { stepFor } from '../../../features/statistics/time-range';
import { type StatisticsBody, useStatisticsFilter } from '../../../features/statistics/use-statistics-filter';

/** The dashboard's two ranges (spec part 2 §2): the last 24 hours and the last 30 days. */
const DAY_HOURS = 24;
const MONTH_HOURS = 30 * 24;
/** The 30 days are drawn one point per day. */
const DAILY_STEP = 1440;

const S = STATISTICS_SERIES;
/** Traffic, cache, bandwidth, request count, upstream count and status (spec part 2 §2). */
const TRAFFIC_SERIES = [S.traffic, S.cache, S.bandwidth, S.requests, S.upstream, S.status] as const;
const T = STATISTICS_TOPS;

interface TabProps {
  body: StatisticsBody;
  /** Minutes per point of the traffic series and of the blacklist and WAF series. */
  step: number;
  securityStep: number;
}

/**
 * The dashboard's traffic analysis (spec part 1 §2 "Dashboard analysis tabs: overview, blacklist
 * analysis, WAF analysis"; part 2 §2 the traffic charts over the last 24 hours and 30 days).
 */
export function DashboardAnalysis({ extra }: { extra?: ReactNode }) {
  const { t } = useTranslation('statistics');
  const filter = useStatisticsFilter(DAY_HOURS);
  const hours = 'hours' in filter.state.range ? filter.state.range.hours : DAY_HOURS;
  const daily = hours === MONTH_HOURS;
  const props: TabProps = {
    body: filter.body,
    step: stepFor(filter.range, daily ? DAILY_STEP : DASHBOARD_INTERVALS.traffic),
    securityStep: stepFor(filter.range, daily ? DAILY_STEP : BLACKLIST_WAF_STEP_MINUTES),
  };
  return (
    <Card
      title={t('dashboard.title')}
      data-testid="dashboard-analysis"
      extra={
        <Flex gap={16} align="center">
          {extra}
          <Segmented
            aria-label={t('filters.range')}
            value={hours}
            options={[
              { value: DAY_HOURS, label: t('dashboard.last24Hours') },
              { value: MONTH_HOURS, label: t('dashboard.last30Days') },
            ]}
            onChange={(value) => filter.update({ range: { hours: Number(value) } })}
          />
        </Flex>
      }
    >
      <Tabs
        items={[
          { key: 'overview', label: t('dashboard.overview'), children: <Overview {...props} /> },
          { key: 'blacklist', label: t('dashboard.blacklist'), children: <Blacklist {...props} /> },
          { key: 'waf', label: t('dashboard.waf'), children: <Waf {...props} /> },
        ]}
      />
    </Card>
  );
}

function Overview({ body, step }: TabProps) {
  const cards = [DASHBOARD_CARD_IDS.requestInfo, DASHBOARD_CARD_IDS.ipInfo, DASHBOARD_CARD_IDS.statusInfo];
  return (
    <Row gutter={[16, 16]}>
      {cards.map((type) => (
        <Col key={type} xs={24} xl={8}>
          <StatCard type={type} body={body} style={{ height: '100%' }} />
        </Col>
      ))}
      {TRAFFIC_SERIES.map((type: StatisticsSeriesType) => (
        <Col key={type} xs={24} xl={12}>
          <SeriesChart type={type} body={body} step={step} height={220} />
        </Col>
      ))}
    </Row>
  );
}

function Blacklist({ body, securityStep }: TabProps) {
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={8}>
        <StatCard type={DASHBOARD_CARD_IDS.blacklistInfo} body={body} style={{ height: '100%' }} />
      </Col>
      <Col xs={24} xl={16}>
        <SeriesChart type={S.blacklist} body={body} step={securityStep} height={220} />
      </Col>
      <Col span={24}>
        <TopList type={T.blacklist} body={body} top={TOP_COUNTS.default} />
      </Col>
    </Row>
  );
}

function Waf({ body, securityStep }: TabProps) {
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={8}>
        <StatCard type={DASHBOARD_CARD_IDS.blockInfo} body={body} style={{ height: '100%' }} />
      </Col>
      <Col xs={24} xl={16}>
        <SeriesChart type={S.waf} body={body} step={securityStep} height={220} />
      </Col>
      {[T.attackMethods, T.attackDomains, T.attackIPs].map((type) => (
        <Col key={type} xs={24} xl={8}>
          <TopList type={type} body={body} top={TOP_COUNTS.waf} />
        </Col>
      ))}
    </Row>
  );
}
