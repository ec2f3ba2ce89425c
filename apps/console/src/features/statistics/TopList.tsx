import { STATISTICS_TOPS, type StatisticsTopRow } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../i18n';
import { LoadFailed } from './LoadFailed';
import { NoTraffic } from './NoTraffic';
import { formatValue } from './stat-format';
import { topQuery } from './statistics-queries';
import type { StatisticsBody } from './use-statistics-filter';
import { useStatisticsTier } from './use-statistics-tier';

/** Tops of what was stopped: their rows count blocked requests, not traffic (part 1 §3). */
const BLOCK_TOPS: readonly number[] = [
  STATISTICS_TOPS.blacklist,
  STATISTICS_TOPS.blockCountry,
  STATISTICS_TOPS.blockCity,
  STATISTICS_TOPS.attackMethods,
  STATISTICS_TOPS.attackDomains,
  STATISTICS_TOPS.attackIPs,
];

interface TopListProps {
  type: number;
  body: StatisticsBody;
  /** Rows asked for (TOP_COUNTS). */
  top: number;
  extra?: React.ReactNode;
  style?: React.CSSProperties;
  /** Height of the scrolling rows (the widget grid's cell). */
  scrollY?: number;
}

/** A top list over the filter, largest first: the value, its requests and traffic, or what was blocked. */
export function TopList({ type, body, top, extra, style, scrollY }: TopListProps) {
  const { t } = useTranslation('statistics');
  const [locale] = useLocale();
  const tier = useStatisticsTier();
  const query = useQuery(topQuery(tier, body, type, top));
  const blocks = BLOCK_TOPS.includes(type);
  const columns: TableColumnsType<StatisticsTopRow> = [
    {
      title: t(`topKeys.${type}` as 'topKeys.19'),
      dataIndex: 'key',
      ellipsis: true,
      render: (key: string, row) => (row.name && row.name !== key ? `${row.name} (${key})` : key),
    },
    blocks
      ? {
          title: t('figures.blocked'),
          dataIndex: 'blocked',
          align: 'right',
          width: 110,
          render: (value: number) => formatValue(value, 'count', locale),
        }
      : {
          title: t('figures.requests'),
          dataIndex: 'requests',
          align: 'right',
          width: 110,
          render: (value: number) => formatValue(value, 'count', locale),
        },
    ...(blocks
      ? []
      : [
          {
            title: t('figures.bytesOut'),
            dataIndex: 'bytesOut',
            align: 'right' as const,
            width: 120,
            render: (value: number) => formatValue(value, 'bytes', locale),
          },
        ]),
  ];
  return (
    <Card title={t(`tops.${type}` as 'tops.19')} extra={extra} size="small" style={style} data-testid={`top-${type}`}>
      <Table<StatisticsTopRow>
        size="small"
        rowKey="key"
        columns={columns}
        dataSource={query.data?.data ?? []}
        loading={query.isLoading}
        pagination={false}
        scroll={scrollY ? { y: scrollY } : undefined}
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
