import { type MonthlyUsage, type Tier, trafficRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Select, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../app/route-query';
import { type ListColumns, ListToolbar } from '../../components/FitTable';
import { ListTable } from '../../components/ListTable';
import { useLocale } from '../../i18n/use-locale';
import type { ListSearch } from '../lists/use-list-search';
import { formatValue } from '../statistics/stat-format';
import { monthChoices, parseMonth } from './traffic-units';

/** The widest a customer, site or product name is shown in the report (px). */
const NAME_WIDTH = 140;

/** Months a report offers: this one and the twelve before it. */
const REPORT_MONTHS_BACK = 12;

/** The report's URL filters: the month (`YYYY-MM`, default this month) and, for the operator, the customer. */
export type UsageKey = 'month' | 'userID';

/**
 * A month's traffic per site (`traffic/monthlyUsages`): used, the product's allowance, the extra
 * plans, what is left and the site's restriction, paged on the server with the traffic page sizes.
 * The operator's page adds the customer column, its customer filter and the lift action.
 */
export function MonthlyUsageTable({
  tier,
  search,
  filters,
  customerColumn = false,
  action,
}: {
  tier: Tier;
  search: ListSearch<UsageKey>;
  filters?: ReactNode;
  customerColumn?: boolean;
  action?: (row: MonthlyUsage) => ReactNode;
}) {
  const { t } = useTranslation('traffic');
  const [locale] = useLocale();
  const route = tier === 'client' ? trafficRoutes.listClientMonthlyUsages : trafficRoutes.listUserMonthlyUsages;
  const period = parseMonth(search.filters.month);
  const userID = Number(search.filters.userID);
  const list = useQuery(
    routeQuery(tier, route as typeof trafficRoutes.listClientMonthlyUsages, {
      query: {
        page: search.page,
        pageSize: search.pageSize,
        ...(period ?? {}),
        ...(tier === 'client' && Number.isInteger(userID) && userID > 0 ? { userID } : {}),
      },
    }),
  );
  const bytes = (value: number) => formatValue(value, 'bytes', locale);
  const orUnlimited = (value: number | null) => (value === null ? t('unlimited') : bytes(value));
  // Names end in "…" (whole on hover) and the allowance's two parts are hidden until asked for
  // (the allowance column is their sum), so the report fits 1280 px with every column it needs.
  const columns: ListColumns<MonthlyUsage> = [
    ...(customerColumn ? [{ title: t('customer'), dataIndex: 'userName', ellipsis: true, maxWidth: NAME_WIDTH }] : []),
    { title: t('site'), dataIndex: 'siteName', ellipsis: true, maxWidth: NAME_WIDTH },
    { title: t('product'), dataIndex: 'productName', ellipsis: true, maxWidth: NAME_WIDTH },
    { title: t('used'), dataIndex: 'used', render: bytes },
    {
      title: t('planBytes'),
      dataIndex: 'planBytes',
      defaultHidden: true,
      render: (v: number) => (v === 0 ? t('unlimited') : bytes(v)),
    },
    { title: t('extraBytes'), dataIndex: 'extraBytes', defaultHidden: true, render: bytes },
    { title: t('allowance'), dataIndex: 'allowance', render: orUnlimited },
    { title: t('left'), dataIndex: 'left', render: orUnlimited },
    {
      title: t('restriction'),
      dataIndex: 'restriction',
      render: (value: MonthlyUsage['restriction']) =>
        value === null ? t('restrictions.none') : <Tag color="red">{t(`restrictions.${value}`)}</Tag>,
    },
    ...(action ? [{ title: '', key: 'action', render: (_: unknown, row: MonthlyUsage) => action(row) }] : []),
  ];
  const months = monthChoices(Date.now(), REPORT_MONTHS_BACK);
  return (
    <>
      <ListToolbar style={{ marginBottom: 16 }}>
        <Select
          style={{ width: 140 }}
          aria-label={t('month')}
          value={search.filters.month ?? months[0]}
          options={months.map((value) => ({ value, label: value }))}
          onChange={(month: string) => search.setFilters({ month })}
        />
        {filters}
      </ListToolbar>
      <ListTable<MonthlyUsage>
        rowKey="siteID"
        columns={columns}
        list={list}
        paging={search}
        emptyText={t('emptyReport')}
      />
    </>
  );
}
