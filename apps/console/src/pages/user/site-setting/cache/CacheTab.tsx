import { PlusOutlined } from '@ant-design/icons';
import { type CacheRule, siteCacheRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { DateTime } from '../../../../components/DateTime';
import { FitTable, type ListColumns, ListToolbar } from '../../../../components/FitTable';
import { ListEmpty } from '../../../../components/ListEmpty';
import { actionsColumn, RowActions, SelectionDelete } from '../../../../components/RowActions';
import { TagList } from '../../../../components/TagList';
import { pendingFor } from '../../../../features/lists/row-pending';
import { CachePurgeActions } from './CachePurgeActions';
import { CacheRuleFormModal } from './CacheRuleFormModal';
import { fileTypeLabel, ttlLabel } from './cache-rule-form';
import { PurgeTasks } from './PurgeUrls';

/**
 * A site's cache rules in the order the edge tries them (the server's order: priority, then age;
 * at most 100, so one unpaged table), with add, edit, delete (also several at once) and the
 * site-wide purge.
 */
export function CacheTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation(['cache', 'common']);
  const params = { siteId };
  const list = useQuery(routeQuery('user', siteCacheRoutes.listCacheRules, { params }));
  const [editing, setEditing] = useState<CacheRule | 'new' | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const remove = useRouteMutation('user', siteCacheRoutes.deleteCacheRules, {
    input: (ids: number[]) => ({ params, body: { ids } }),
    invalidates: changes('siteCacheRules'),
    success: () => toastText('deleteSuccess'),
    onSuccess: (_reply, ids) => setSelected((current) => current.filter((id) => !ids.includes(id))),
  });

  const columns: ListColumns<CacheRule> = [
    { title: t('priority'), dataIndex: 'priority', width: 90 },
    {
      title: t('scope'),
      key: 'scope',
      ellipsis: true,
      maxWidth: 260,
      render: (_, rule) => (
        <Space orientation="vertical" size={4}>
          <span>{t(`scopes.${rule.scope}`)}</span>
          {rule.scope !== 'all' && (
            <div>
              <TagList items={rule.scope === 'fileType' ? rule.values.map(fileTypeLabel) : rule.values} />
            </div>
          )}
        </Space>
      ),
    },
    {
      title: t('ttl'),
      key: 'ttl',
      render: (_, rule) => (rule.bypass ? <Tag color="orange">{t('bypassed')}</Tag> : ttlLabel(rule.ttl)),
    },
    {
      title: t('respectOrigin'),
      dataIndex: 'respectOrigin',
      render: (on: boolean, rule) => (rule.bypass ? '—' : on ? t('respected') : t('ignored')),
    },
    {
      title: t('queryString'),
      dataIndex: 'queryString',
      defaultHidden: true,
      render: (value: CacheRule['queryString'], rule) => (rule.bypass ? '—' : t(`queryStrings.${value}`)),
    },
    { title: t('memo'), dataIndex: 'memo', defaultHidden: true, render: (memo: string) => memo || '—' },
    {
      title: t('updatedAt'),
      dataIndex: 'updatedAt',
      defaultHidden: true,
      render: (value: string) => <DateTime value={value} />,
    },
    actionsColumn((rule) => (
      <RowActions
        onEdit={() => setEditing(rule)}
        deleteConfirm={t('deleteConfirm')}
        deleting={pendingFor(remove, rule.id)}
        onDelete={() => remove.mutate([rule.id])}
      />
    )),
  ];

  return (
    <>
      <CachePurgeActions siteId={siteId} />
      <Typography.Title level={5}>{t('rules')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('rulesHint')}</Typography.Paragraph>
      <ListToolbar style={{ marginBottom: 16 }}>
        <SelectionDelete
          count={selected.length}
          label={t('bulkDelete', { count: selected.length })}
          confirm={t('bulkDeleteConfirm', { count: selected.length })}
          pending={remove.isPending && remove.variables === selected}
          onDelete={() => remove.mutate(selected)}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('add')}
        </Button>
      </ListToolbar>
      <FitTable<CacheRule>
        rowKey="id"
        columns={columns}
        dataSource={list.data?.data.rules}
        loading={list.isFetching}
        pagination={false}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        locale={{ emptyText: <ListEmpty text={t('empty')} failed={list.isError} onRetry={() => list.refetch()} /> }}
      />
      <CacheRuleFormModal siteId={siteId} rule={editing} onClose={() => setEditing(null)} />
      <PurgeTasks siteId={siteId} />
    </>
  );
}
