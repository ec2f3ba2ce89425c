import { trafficRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Flex, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../app/route-query';
import { ListEmpty } from '../../components/ListEmpty';
import { useLocale } from '../../i18n';
import { formatValue } from '../statistics/stat-format';

/** Sites shown in the traffic-plan use: the first page of this month's report. */
export const TRAFFIC_USE_SITES = 5;

/** One bar: used of a limit (none when unlimited), in the kind's own words. */
export function UseBar({
  label,
  used,
  limit,
  format,
}: {
  label: string;
  used: number;
  limit: number | null;
  format: (n: number) => string;
}) {
  const { t } = useTranslation('overview');
  const percent = limit === null || limit <= 0 ? null : Math.min(100, Math.round((used / limit) * 100));
  return (
    <section aria-label={label}>
      <Flex justify="space-between" gap={8}>
        <Typography.Text ellipsis>{label}</Typography.Text>
        <Typography.Text type="secondary">
          {limit === null || limit < 0
            ? t('usedUnlimited', { used: format(used) })
            : t('usedOf', { used: format(used), limit: format(limit) })}
        </Typography.Text>
      </Flex>
      {percent !== null && (
        <Progress percent={percent} size="small" status={percent >= 90 ? 'exception' : 'normal'} showInfo={false} />
      )}
    </section>
  );
}

/**
 * This month's traffic of the caller's sites against their allowance (product plus extra plans),
 * the first TRAFFIC_USE_SITES sites of the monthly report (`traffic/monthlyUsages`, paged on the server).
 */
export function TrafficUse({ tier }: { tier: 'client' | 'user' }) {
  const { t } = useTranslation('overview');
  const [locale] = useLocale();
  const route = tier === 'client' ? trafficRoutes.listClientMonthlyUsages : trafficRoutes.listUserMonthlyUsages;
  const list = useQuery(
    routeQuery(tier, route as typeof trafficRoutes.listClientMonthlyUsages, {
      query: { page: 1, pageSize: TRAFFIC_USE_SITES },
    }),
  );
  const rows = list.data?.data ?? [];
  const bytes = (n: number) => formatValue(n, 'bytes', locale);
  return (
    <Card title={t('trafficTitle')} loading={list.isLoading} data-testid="traffic-use" style={{ height: '100%' }}>
      {list.isError || rows.length === 0 ? (
        <ListEmpty text={t('trafficEmpty')} failed={list.isError} onRetry={() => list.refetch()} />
      ) : (
        <Flex vertical gap={8}>
          {rows.map((row) => (
            <UseBar key={row.siteID} label={row.siteName} used={row.used} limit={row.allowance} format={bytes} />
          ))}
          {(list.data?.total ?? 0) > rows.length && (
            <Typography.Text type="secondary">
              {t('trafficMore', { count: (list.data?.total ?? 0) - rows.length })}
            </Typography.Text>
          )}
        </Flex>
      )}
    </Card>
  );
}
