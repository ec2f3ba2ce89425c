import { PlusOutlined } from '@ant-design/icons';
import { type ApiToken, apiTokenRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { useTier } from '../../../app/tier-context';
import { toastText } from '../../../app/toast';
import { DateTime } from '../../../components/DateTime';
import { type ListColumns, ListToolbar } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { actionsColumn, RowActions, SelectionDelete } from '../../../components/RowActions';
import { pendingFor } from '../../../features/lists/row-pending';
import { useListSearch } from '../../../features/lists/use-list-search';
import { ApiTokenFormModal, ApiTokenSecretModal, type CreatedApiToken } from './ApiTokenModals';

/**
 * `/{user,client}/userManagement/apiTokenSetting` (spec part 1 §2; cdnray §9.1): the caller's API
 * tokens, paged in the URL; create (name, access token lifetime, optional keys), whose secret is
 * shown once with a copy button; delete one or the chosen ones.
 */
export function ApiTokensPage() {
  const tier = useTier();
  const { t } = useTranslation(['apiTokens', 'common', 'shell']);
  const canWrite = useCan('apiTokens.write');
  const search = useListSearch([]);
  const tokens = useQuery(
    routeQuery(tier, apiTokenRoutes.listApiTokens, {
      params: { auth: tier },
      query: { page: search.page, pageSize: search.pageSize },
    }),
  );
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const remove = useRouteMutation(tier, apiTokenRoutes.deleteApiTokens, {
    input: (ids: number[]) => ({ params: { auth: tier }, body: { ids } }),
    invalidates: changes('apiTokens'),
    success: () => toastText('deleteSuccess'),
    onSuccess: (_reply, ids) => setSelected((current) => current.filter((id) => !ids.includes(id))),
  });

  const columns: ListColumns<ApiToken> = [
    { title: t('name'), dataIndex: 'name', key: 'name' },
    {
      title: t('lifetime'),
      dataIndex: 'lifetime',
      key: 'lifetime',
      render: (seconds: number) => t('lifetimeValue', { seconds }),
    },
    {
      title: t('permissions'),
      key: 'permissions',
      ellipsis: true,
      render: (_, token) =>
        token.permissions === null ? t('allPermissions') : token.permissions.join(', ') || t('allPermissions'),
    },
    {
      title: t('createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      defaultHidden: true,
      render: (value: string) => <DateTime value={value} />,
    },
    {
      title: t('lastUsedAt'),
      dataIndex: 'lastUsedAt',
      key: 'lastUsedAt',
      render: (value: string | null) => (value ? <DateTime value={value} /> : t('never')),
    },
    {
      title: t('state'),
      key: 'state',
      render: (_, token) =>
        token.revokedAt ? (
          <Tooltip title={t('revokedHint')}>
            <Tag color="red">{t('revoked')}</Tag>
          </Tooltip>
        ) : (
          <Tag color="green">{t('active')}</Tag>
        ),
    },
  ];
  if (canWrite) {
    columns.push(
      actionsColumn((token) => (
        <RowActions
          deleteConfirm={t('deleteConfirm', { name: token.name })}
          deleting={pendingFor(remove, token.id)}
          onDelete={() => remove.mutate([token.id])}
        />
      )),
    );
  }

  return (
    <>
      <PageTitle>{t('shell:menu.apiTokenSetting')}</PageTitle>
      <Typography.Paragraph type="secondary">{t('usage', { auth: tier })}</Typography.Paragraph>
      {canWrite && (
        <ListToolbar style={{ marginBottom: 16 }}>
          <SelectionDelete
            count={selected.length}
            label={t('bulkDelete', { count: selected.length })}
            confirm={t('bulkDeleteConfirm', { count: selected.length })}
            pending={remove.isPending && remove.variables === selected}
            onDelete={() => remove.mutate(selected)}
          />
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            {t('create')}
          </Button>
        </ListToolbar>
      )}
      <ListTable<ApiToken>
        rowKey="id"
        columns={columns}
        rowSelection={
          canWrite ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined
        }
        list={tokens}
        paging={search}
        emptyText={t('empty')}
      />
      <ApiTokenFormModal
        tier={tier}
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(token) => {
          setCreating(false);
          setCreated(token);
        }}
      />
      <ApiTokenSecretModal token={created} onClose={() => setCreated(null)} />
    </>
  );
}
