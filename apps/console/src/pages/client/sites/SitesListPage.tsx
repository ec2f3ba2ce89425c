import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import { type OperatorSite, siteRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Dropdown, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { type ListColumns, ListToolbar } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { actionsColumn, RowActions, SelectionDelete } from '../../../components/RowActions';
import { pendingFor } from '../../../features/lists/row-pending';
import { useSiteStateColumns } from '../../../features/sites/site-columns';
import { ClientSiteFilters } from './ClientSiteFilters';
import { CreateSiteModal } from './CreateSiteModal';
import { useClientSiteSearch } from './client-site-search';
import { EditSiteModal } from './EditSiteModal';
import { SiteActionModal } from './SiteActionModal';
import { useSiteActions } from './use-site-actions';

/**
 * `/client/sitesManagement/sitesList`: the operator's sites, paged and filtered on the server
 * (filters in the URL); create, edit and delete sites, and change status, product, customer,
 * expiry, force-backup, tags and limitations of one site or of the chosen ones.
 */
export function SitesListPage() {
  const { t } = useTranslation(['sites', 'siteActions', 'common', 'shell']);
  const { search, query } = useClientSiteSearch();
  const sites = useQuery(routeQuery('client', siteRoutes.listClientSites, { query }));
  const [selected, setSelected] = useState<OperatorSite[]>([]);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<OperatorSite | null>(null);
  const actions = useSiteActions();
  const remove = useRouteMutation('client', siteRoutes.deleteSites, {
    input: (ids: number[]) => ({ body: { ids } }),
    invalidates: changes('sites'),
    success: () => toastText('deleteSuccess'),
    onSuccess: (_reply, ids) => setSelected((current) => current.filter((site) => !ids.includes(site.siteID))),
  });

  const stateColumns = useSiteStateColumns<OperatorSite>();
  const columns: ListColumns<OperatorSite> = [
    { title: t('name'), dataIndex: 'siteName', maxWidth: 180 },
    { title: t('customer'), dataIndex: 'userAccount', ellipsis: true, maxWidth: 100 },
    { title: t('product'), dataIndex: 'productName', ellipsis: true, maxWidth: 100 },
    ...stateColumns.map((column) => (column.dataIndex === 'status' ? column : { ...column, defaultHidden: true })),
    {
      title: t('siteActions:forceBackup'),
      dataIndex: 'forceBackup',
      defaultHidden: true,
      render: (on: boolean) => (on ? <Tag color="orange">{t('siteActions:forceBackup')}</Tag> : '—'),
    },
    {
      title: t('siteActions:domains'),
      key: 'domains',
      render: (_, site) =>
        `${site.domainCount} / ${site.limitations.maxDomains === 0 ? t('siteActions:unlimited') : site.limitations.maxDomains}`,
    },
    { title: t('siteActions:memo'), dataIndex: 'memo', ellipsis: true, defaultHidden: true },
    actionsColumn((site) => (
      <RowActions
        onEdit={() => setEditing(site)}
        editLabel={t('siteActions:edit')}
        deleteConfirm={t('deleteConfirm', { name: site.siteName })}
        deleting={pendingFor(remove, site.siteID)}
        onDelete={() => remove.mutate([site.siteID])}
      >
        <Dropdown menu={actions.menu([site])}>
          <Button size="small">
            {t('siteActions:more')} <DownOutlined />
          </Button>
        </Dropdown>
      </RowActions>
    )),
  ];
  const selectedIds = selected.map((site) => site.siteID);

  return (
    <>
      <PageTitle>{t('shell:menu.sitesList')}</PageTitle>
      <ClientSiteFilters search={search} />
      <ListToolbar style={{ marginBottom: 16 }}>
        <Space>
          <Dropdown disabled={selected.length === 0} menu={actions.menu(selected)}>
            <Button loading={actions.pending}>
              {t('siteActions:bulk', { count: selected.length })} <DownOutlined />
            </Button>
          </Dropdown>
          <SelectionDelete
            count={selected.length}
            label={t('bulk.delete', { count: selected.length })}
            confirm={t('bulk.deleteConfirm', { count: selected.length })}
            pending={remove.isPending && remove.variables?.length === selected.length}
            onDelete={() => remove.mutate(selectedIds)}
          />
        </Space>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t('create.open')}
        </Button>
      </ListToolbar>
      <ListTable<OperatorSite>
        rowKey="siteID"
        columns={columns}
        rowSelection={{ selectedRowKeys: selectedIds, onChange: (_keys, rows) => setSelected(rows) }}
        list={sites}
        paging={search}
        emptyText={t('empty')}
      />
      <CreateSiteModal open={creating} onClose={() => setCreating(false)} />
      <EditSiteModal site={editing} onClose={() => setEditing(null)} />
      <SiteActionModal
        action={actions.open?.action ?? null}
        sites={actions.open?.sites ?? []}
        onClose={actions.close}
      />
    </>
  );
}
