import { useQuery } from '@tanstack/react-query';
import { Card, Col, Flex, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../i18n';
import { LoadFailed } from './LoadFailed';
import { formatValue } from './stat-format';
import { upstreamTimesQuery } from './statistics-queries';
import type { StatisticsBody } from './use-statistics-filter';
import { useStatisticsTier } from './use-statistics-tier';

const PERCENTILES = ['p50', 'p95', 'p99'] as const;

/**
 * The origin's response time over the filter (the requests that reached it): p50, p95 and p99 in
 * milliseconds, from the nodes' histograms and the raw events alike, with the bound of their error.
 */
export function UpstreamTimes({ body }: { body: StatisticsBody }) {
  const { t } = useTranslation('statistics');
  const [locale] = useLocale();
  const tier = useStatisticsTier();
  const query = useQuery(upstreamTimesQuery(tier, body));
  const times = query.data?.data;
  return (
    <Card
      title={t('upstreamTimes.title')}
      size="small"
      loading={query.isLoading}
      style={{ height: '100%' }}
      data-testid="upstream-times"
    >
      {query.isError || !times ? (
        <LoadFailed onRetry={() => query.refetch()} />
      ) : times.total.count === 0 ? (
        <Typography.Text type="secondary">{t('upstreamTimes.none')}</Typography.Text>
      ) : (
        <Flex vertical gap={8}>
          <Row gutter={[16, 8]}>
            {PERCENTILES.map((p) => (
              <Col key={p} flex="1 1 120px">
                <Statistic
                  title={t(`upstreamTimes.${p}`)}
                  formatter={() => `${formatValue(Math.round(times.total[p] ?? 0), 'count', locale)} ms`}
                  data-testid={`upstream-${p}`}
                />
              </Col>
            ))}
          </Row>
          <Typography.Text type="secondary">
            {t('upstreamTimes.error', { error: formatValue(times.relativeError, 'percent', locale) })}
          </Typography.Text>
        </Flex>
      )}
    </Card>
  );
}
