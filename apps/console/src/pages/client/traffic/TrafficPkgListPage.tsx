import { PlusOutlined } from '@ant-design/icons';
import { type ExtraTrafficPlan, TRAFFIC_REPORT_PAGE_SIZES, trafficRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { ListToolbar } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { actionsColumn, RowActions, SelectionDelete } from '../../../components/RowActions';
import { SearchBox } from '../../../components/SearchBox';
import { pendingFor } from '../../../features/lists/row-pending';
import { useListSearch } from '../../../features/lists/use-list-search';
import { planColumns } from '../../../features/traffic/plan-columns';
import { monthKey } from '../../../features/traffic/traffic-units';
import { useLocale } from '../../../i18n/use-locale';
import { TrafficPlanFormModal } from './TrafficPlanFormModal';

const KEYS = ['productName'] as const;

/**
 * `/client/trafficPkgManagement/trafficPkgList`: the extra traffic plans sold to the operator's
 * customers, newest first, paged on the server (25 to 500), searched by product name; created,
 * edited and deleted (one or the chosen ones). A plan that brings its site under its allowance
 * lifts the site's restriction (docs/decisions.md "Traffic packages").
 */
export function TrafficPkgListPage() {
  const { t } = useTranslation(['traffic', 'shell']);
  const [locale] = useLocale();
  const search = useListSearch(KEYS, TRAFFIC_REPORT_PAGE_SIZES);
  const canWrite = useCan('client.traffic.write');
  const list = useQuery(
    routeQuery('client', trafficRoutes.listClientTrafficPlans, {
      query: { page: search.page, pageSize: search.pageSize, productName: search.filters.productName },
    }),
  );
  const [editing, setEditing] = useState<ExtraTrafficPlan | 'new' | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const remove = useRouteMutation('client', trafficRoutes.deleteTrafficPlans, {
    input: (ids: number[]) => ({ body: { ids } }),
    invalidates: changes('trafficPlans'),
    success: () => toastText('deleteSuccess'),
    onSuccess: (_reply, ids) => setSelected((current) => current.filter((id) => !ids.includes(id))),
  });
  const columns = [
    ...planColumns(t, locale, { customer: true }),
    ...(canWrite
      ? [
          actionsColumn((plan: ExtraTrafficPlan) => (
            <RowActions
              onEdit={() => setEditing(plan)}
              deleteConfirm={t('deleteConfirm', { site: plan.siteName, month: monthKey(plan.year, plan.month) })}
              deleting={pendingFor(remove, plan.id)}
              onDelete={() => remove.mutate([plan.id])}
            />
          )),
        ]
      : []),
  ];
  return (
    <>
      <PageTitle>{t('shell:menu.trafficPkgList')}</PageTitle>
      <ListToolbar style={{ marginBottom: 16 }}>
        <SearchBox
          label={t('productName')}
          value={search.filters.productName}
          onSearch={(productName) => search.setFilters({ productName })}
        />
        {canWrite && (
          <>
            <SelectionDelete
              count={selected.length}
              label={t('bulkDelete', { count: selected.length })}
              confirm={t('bulkDeleteConfirm', { count: selected.length })}
              pending={remove.isPending && remove.variables === selected}
              onDelete={() => remove.mutate(selected)}
            />
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('create')}
            </Button>
          </>
        )}
      </ListToolbar>
      <ListTable<ExtraTrafficPlan>
        rowKey="id"
        columns={columns}
        rowSelection={
          canWrite ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined
        }
        list={list}
        paging={search}
        emptyText={t('emptyPlans')}
      />
      <TrafficPlanFormModal plan={editing} onClose={() => setEditing(null)} />
    </>
  );
}
