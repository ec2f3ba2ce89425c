import { DownloadOutlined } from '@ant-design/icons';
import type { StatisticsDomainRow } from '@rampart/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Button, Card, type TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../app/route-query';
import { showApiError } from '../../app/show-error';
import type { ListColumns } from '../../components/FitTable';
import { ListTable } from '../../components/ListTable';
import { useLocale } from '../../i18n';
import { callAuthedRaw } from '../../session/call-authed';
import { saveResponse } from '../download/save-file';
import { useLocalPaging } from '../lists/use-list-search';
import { formatValue } from './stat-format';
import { figureLabel } from './stat-labels';
import { statisticsRoutes } from './statistics-routes';
import type { StatisticsBody } from './use-statistics-filter';
import { useStatisticsTier } from './use-statistics-tier';

type SortBy = 'requests' | 'bytesOut' | 'blocked' | 'domain';
interface Sort {
  sortBy: SortBy;
  orderBy: 'asc' | 'desc';
}
const SORTABLE: readonly string[] = ['requests', 'bytesOut', 'blocked', 'domain'];

/**
 * Totals per domain over the filter (`{tier}/statistics/list`), paged and sorted on the server,
 * and the same rows as a CSV download (`list/export`, named by the reply's Content-Disposition).
 */
export function DomainTotals({ body }: { body: StatisticsBody }) {
  const { t } = useTranslation('statistics');
  const [locale] = useLocale();
  const tier = useStatisticsTier();
  const routes = statisticsRoutes(tier);
  const paging = useLocalPaging();
  const [sort, setSort] = useState<Sort>({ sortBy: 'requests', orderBy: 'desc' });
  const list = useQuery({
    ...routeQuery(tier, routes.list, { body: { ...body, ...sort, page: paging.page, pageSize: paging.pageSize } }),
    placeholderData: keepPreviousData,
  });
  const exportFile = useMutation({
    mutationFn: async () =>
      saveResponse(await callAuthedRaw(tier, routes.export, { body: { ...body, ...sort } }), 'statistics.csv'),
    onError: (error) => showApiError(error),
  });

  const count = (value: number) => formatValue(value, 'count', locale);
  const bytes = (value: number) => formatValue(value, 'bytes', locale);
  const order = (field: SortBy) =>
    sort.sortBy === field ? (sort.orderBy === 'asc' ? ('ascend' as const) : ('descend' as const)) : null;
  // The domain (the row's name) and the site end in "…" when long; the less asked-for figures wait in
  // the column chooser, so the table fits a 1280-pixel screen.
  const columns: ListColumns<StatisticsDomainRow> = [
    { title: t('domainList.domain'), dataIndex: 'domain', sorter: true, sortOrder: order('domain') },
    { title: t('domainList.site'), dataIndex: 'siteName', ellipsis: true, maxWidth: 160 },
    {
      title: t('figures.requests'),
      dataIndex: 'requests',
      align: 'right',
      sorter: true,
      sortOrder: order('requests'),
      render: count,
    },
    {
      title: t('figures.bytesOut'),
      dataIndex: 'bytesOut',
      align: 'right',
      sorter: true,
      sortOrder: order('bytesOut'),
      render: bytes,
    },
    { title: t('figures.bytesIn'), dataIndex: 'bytesIn', align: 'right', render: bytes, defaultHidden: true },
    { title: t('figures.hitRequests'), dataIndex: 'hitRequests', align: 'right', render: count, defaultHidden: true },
    {
      title: t('figures.blocked'),
      dataIndex: 'blocked',
      align: 'right',
      sorter: true,
      sortOrder: order('blocked'),
      render: count,
    },
    { title: figureLabel(t, 's4xx'), dataIndex: 's4xx', align: 'right', render: count },
    { title: figureLabel(t, 's5xx'), dataIndex: 's5xx', align: 'right', render: count },
  ];
  const onChange: TableProps<StatisticsDomainRow>['onChange'] = (_pagination, _filters, sorter, extra) => {
    if (extra.action !== 'sort' || Array.isArray(sorter)) return;
    const field = typeof sorter.field === 'string' && SORTABLE.includes(sorter.field) ? sorter.field : undefined;
    setSort(
      field && sorter.order
        ? { sortBy: field as SortBy, orderBy: sorter.order === 'ascend' ? 'asc' : 'desc' }
        : { sortBy: 'requests', orderBy: 'desc' },
    );
  };

  return (
    <Card
      title={t('domainList.title')}
      size="small"
      data-testid="domain-totals"
      extra={
        <Button icon={<DownloadOutlined />} loading={exportFile.isPending} onClick={() => exportFile.mutate()}>
          {t('domainList.export')}
        </Button>
      }
    >
      <ListTable<StatisticsDomainRow>
        rowKey="domainID"
        size="small"
        columns={columns}
        list={list}
        paging={paging}
        onChange={onChange}
        emptyText={t('empty.noTraffic')}
      />
    </Card>
  );
}
