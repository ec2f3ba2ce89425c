import { STATISTICS_RANGE_MAX_DAYS } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { cardQuery } from './statistics-queries';
import type { StatisticsBody } from './use-statistics-filter';
import { useStatisticsTier } from './use-statistics-tier';

const DAY_MS = 86_400_000;

/**
 * Why a chart or list is empty: when the longest range a call covers (93 days up to the range's
 * end) has no request either, no node serves these sites yet; otherwise the range had no traffic.
 * The longer call is made only when something is empty, and shared by every empty view of a page.
 */
export function NoTraffic({ body }: { body: StatisticsBody }) {
  const { t } = useTranslation('statistics');
  const tier = useStatisticsTier();
  const end = Date.parse(body.endTime);
  const longest = { ...body, startTime: new Date(end - STATISTICS_RANGE_MAX_DAYS * DAY_MS).toISOString() };
  const ever = useQuery(cardQuery(tier, longest, 3));
  const neverServed = ever.data !== undefined && ever.data.data.requests === 0;
  return (
    <div data-testid="no-traffic">
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={neverServed ? t('empty.noNode') : t('empty.noTraffic')}
      />
    </div>
  );
}
