import {
  BLACKLIST_WAF_STEP_MINUTES,
  DASHBOARD_CARD_IDS,
  DASHBOARD_INTERVALS,
  DEFAULT_TIME_INTERVAL_HOURS,
  SECURITY_FIXED_TOPS,
  STATISTICS_SERIES,
  STATISTICS_TOPS,
  TOP_COUNTS,
} from '@rampart/contract';
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../components/PageTitle';
import { SeriesChart } from '../../features/statistics/SeriesChart';
import { StatCard } from '../../features/statistics/StatCard';
import { StatisticsFilters } from '../../features/statistics/StatisticsFilters';
import { TopList } from '../../features/statistics/TopList';
import { stepFor } from '../../features/statistics/time-range';
import { useStatisticsFilter } from '../../features/statistics/use-statistics-filter';

const T = STATISTICS_TOPS;
/** The tops of what was stopped, with their row counts (spec part 2 §9: WAF tops 20, area tops 30). */
const BLOCK_TOPS = [
  { type: T.blacklist, top: TOP_COUNTS.default },
  { type: T.blockCountry, top: TOP_COUNTS.area },
  { type: T.blockCity, top: TOP_COUNTS.area },
  { type: T.attackMethods, top: TOP_COUNTS.waf },
  { type: T.attackDomains, top: TOP_COUNTS.waf },
  { type: T.attackIPs, top: TOP_COUNTS.waf },
];

/**
 * `/{tier}/dataAnalysis/securityAnalysis`: what the firewall let through and stopped, the last six
 * hours at first (spec part 2 §4, §9): blacklist and block cards, allowed and blocked requests
 * (green and red), the blacklist and WAF series by the hour, the block and attack tops, and the
 * referer, URL and user-agent tops.
 */
export function SecurityAnalysisPage() {
  const { t } = useTranslation('shell');
  const filter = useStatisticsFilter(DEFAULT_TIME_INTERVAL_HOURS.security, DASHBOARD_INTERVALS.security);
  const { body, step, range } = filter;
  const hourly = stepFor(range, BLACKLIST_WAF_STEP_MINUTES);
  return (
    <>
      <PageTitle>{t('menu.securityAnalysis')}</PageTitle>
      <StatisticsFilters filter={filter} />
      <Row gutter={[16, 16]}>
        {[DASHBOARD_CARD_IDS.blacklistInfo, DASHBOARD_CARD_IDS.blockInfo].map((type) => (
          <Col key={type} xs={24} xl={12}>
            <StatCard type={type} body={body} style={{ height: '100%' }} />
          </Col>
        ))}
        <Col span={24}>
          <SeriesChart type={STATISTICS_SERIES.passDrop} body={body} step={step} />
        </Col>
        {[STATISTICS_SERIES.blacklist, STATISTICS_SERIES.waf].map((type) => (
          <Col key={type} xs={24} xl={12}>
            <SeriesChart type={type} body={body} step={hourly} />
          </Col>
        ))}
        {BLOCK_TOPS.map(({ type, top }) => (
          <Col key={type} xs={24} xl={12}>
            <TopList type={type} body={body} top={top} />
          </Col>
        ))}
        {SECURITY_FIXED_TOPS.map((type) => (
          <Col key={type} xs={24} xl={8}>
            <TopList type={type} body={body} top={TOP_COUNTS.default} />
          </Col>
        ))}
      </Row>
    </>
  );
}
