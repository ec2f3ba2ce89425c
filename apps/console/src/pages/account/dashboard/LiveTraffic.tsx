import { DASHBOARD_CARD_IDS, STATISTICS_TOPS } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../features/statistics/LoadFailed';
import { formatValue } from '../../../features/statistics/stat-format';
import { cardQuery } from '../../../features/statistics/statistics-queries';
import { TopList } from '../../../features/statistics/TopList';
import { bucketEnd, resolveRange, type TimeRange } from '../../../features/statistics/time-range';
import { useStatisticsTier } from '../../../features/statistics/use-statistics-tier';
import { useLocale } from '../../../i18n';

/** How often "now" is read again: the edge's events reach the statistics within seconds. */
export const LIVE_REFRESH_MS = 15_000;
/** Rows of the most attacked domains. */
export const TOP_ATTACKED = 5;
const MINUTE_MS = 60_000;
/** "Now" is the last five minutes, to the next whole minute (the statistics count by the minute). */
const NOW_MS = 5 * MINUTE_MS;

function useTicking(periodMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), periodMs);
    return () => clearInterval(timer);
  }, [periodMs]);
  return now;
}

/**
 * The dashboard's first row: requests and blocked requests in the last five minutes (read again
 * every LIVE_REFRESH_MS) and over the last 24 hours, and the domains the WAF stopped most
 * requests of in those 24 hours. Every figure is the statistics calls' own, over the caller's sites.
 */
export function LiveTraffic() {
  const { t } = useTranslation('statistics');
  const now = useTicking(LIVE_REFRESH_MS);
  const minute = Math.ceil(now / MINUTE_MS) * MINUTE_MS;
  const current = useMemo<TimeRange>(
    () => ({ startTime: new Date(minute - NOW_MS).toISOString(), endTime: new Date(minute).toISOString() }),
    [minute],
  );
  const end = bucketEnd(now);
  const day = useMemo(() => resolveRange({ hours: 24 }, end), [end]);
  return (
    <Row gutter={[16, 16]} data-testid="live-traffic">
      <Col xs={24} xl={7}>
        <Figures title={t('live.now')} range={current} live testId="live-now" />
      </Col>
      <Col xs={24} xl={7}>
        <Figures title={t('live.day')} range={day} testId="live-day" />
      </Col>
      <Col xs={24} xl={10}>
        <TopList
          type={STATISTICS_TOPS.attackDomains}
          body={day}
          top={TOP_ATTACKED}
          extra={t('live.day')}
          scrollY={150}
          style={{ height: '100%' }}
        />
      </Col>
    </Row>
  );
}

function Figures({ title, range, live, testId }: { title: string; range: TimeRange; live?: boolean; testId: string }) {
  const { t } = useTranslation('statistics');
  const [locale] = useLocale();
  const tier = useStatisticsTier();
  const query = useQuery({
    ...cardQuery(tier, range, DASHBOARD_CARD_IDS.requestInfo),
    refetchInterval: live ? LIVE_REFRESH_MS : false,
  });
  const card = query.data?.data;
  return (
    <Card title={title} size="small" loading={query.isLoading} style={{ height: '100%' }} data-testid={testId}>
      {query.isError || !card ? (
        <LoadFailed onRetry={() => query.refetch()} />
      ) : (
        <Row gutter={16}>
          <Col span={12}>
            <Statistic title={t('live.requests')} value={formatValue(card.requests, 'count', locale)} />
          </Col>
          <Col span={12}>
            <Statistic
              title={t('live.blocked')}
              value={formatValue(card.blocked, 'count', locale)}
              valueStyle={card.blocked > 0 ? { color: '#cf1322' } : undefined}
            />
          </Col>
        </Row>
      )}
    </Card>
  );
}
