import { type ExtraTrafficPlan, TRAFFIC_REPORT_PAGE_SIZES, trafficRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import { ListToolbar } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { SearchBox } from '../../../components/SearchBox';
import { type ListSearch, useListSearch } from '../../../features/lists/use-list-search';
import { MonthlyUsageTable, type UsageKey } from '../../../features/traffic/MonthlyUsageTable';
import { planColumns } from '../../../features/traffic/plan-columns';
import { useLocale } from '../../../i18n/use-locale';

type Key = UsageKey | 'productName' | 'view';
const KEYS: readonly Key[] = ['view', 'month', 'productName'];

/**
 * `/user/trafficPkgManagement/trafficPkgList`: the customer's extra traffic plans and, on the
 * second tab, its monthly traffic report (spec part 1 §2: "trafficPkgList (also a monthly traffic
 * report)"). The tab, page and filters are in the URL; page sizes 25 to 500.
 */
export function UserTrafficPkgListPage() {
  const { t } = useTranslation(['traffic', 'shell']);
  const search = useListSearch(KEYS, TRAFFIC_REPORT_PAGE_SIZES);
  const view = search.filters.view === 'report' ? 'report' : 'plans';
  return (
    <>
      <PageTitle>{t('shell:menu.trafficPkgList')}</PageTitle>
      <Tabs
        activeKey={view}
        onChange={(next) =>
          search.setFilters({ view: next === 'plans' ? undefined : next, month: undefined, productName: undefined })
        }
        items={[
          { key: 'plans', label: t('plans'), children: view === 'plans' && <Plans search={search} /> },
          {
            key: 'report',
            label: t('report'),
            children: view === 'report' && <MonthlyUsageTable tier="user" search={search} />,
          },
        ]}
      />
    </>
  );
}

function Plans({ search }: { search: ListSearch<Key> }) {
  const { t } = useTranslation('traffic');
  const [locale] = useLocale();
  const list = useQuery(
    routeQuery('user', trafficRoutes.listUserTrafficPlans, {
      query: { page: search.page, pageSize: search.pageSize, productName: search.filters.productName },
    }),
  );
  return (
    <>
      <ListToolbar style={{ marginBottom: 16 }}>
        <SearchBox
          label={t('productName')}
          value={search.filters.productName}
          onSearch={(productName) => search.setFilters({ productName })}
        />
      </ListToolbar>
      <ListTable<ExtraTrafficPlan>
        rowKey="id"
        columns={planColumns(t, locale, { customer: false })}
        list={list}
        paging={search}
        emptyText={t('emptyPlans')}
      />
    </>
  );
}
