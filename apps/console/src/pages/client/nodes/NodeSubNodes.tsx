import { type InitializedNode, type SubNode, subNodeRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { DateTime } from '../../../components/DateTime';
import { FitTable, type ListColumns, ListToolbar } from '../../../components/FitTable';
import { actionsColumn, RowActions, SelectionDelete } from '../../../components/RowActions';
import { useSelectedRows } from '../../../features/lists/use-selected-rows';

/** Addresses typed one per line (or separated by commas or spaces). */
function addressesOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * A node's sub-nodes in its drawer (contract's routes/sub-nodes.ts): extra addresses of the same
 * machine, each its own DNS record. Add several at once, change one's address, delete selected ones.
 */
export function NodeSubNodes({ node }: { node: InitializedNode }) {
  const { t } = useTranslation('nodeOps');
  const params = { zoneID: node.zoneId, id: node.id };
  const subs = useQuery(routeQuery('client', subNodeRoutes.listSubNodes, { params }));
  const { selected, rowSelection, clear } = useSelectedRows<SubNode>();
  const [adding, setAdding] = useState('');
  const [editing, setEditing] = useState<{ id: number; ip: string } | null>(null);
  const create = useRouteMutation('client', subNodeRoutes.createSubNodes, {
    input: (ips: string[]) => ({ params, body: { ips } }),
    invalidates: changes('subNodes'),
    success: () => toastText('setSuccess'),
    onSuccess: () => setAdding(''),
  });
  const remove = useRouteMutation('client', subNodeRoutes.deleteSubNodes, {
    input: (ids: number[]) => ({ params, body: { ids } }),
    invalidates: changes('subNodes'),
    success: () => toastText('deleteSuccess'),
    onSuccess: clear,
  });
  const update = useRouteMutation('client', subNodeRoutes.updateSubNodeIp, {
    input: (value: { id: number; ip: string }) => ({ params, body: value }),
    invalidates: changes('subNodes'),
    success: () => toastText('updateSuccess'),
    onSuccess: () => setEditing(null),
  });
  const ids = selected.map((s) => s.id);
  const columns: ListColumns<SubNode> = [
    { title: t('subs.ip'), dataIndex: 'ip' },
    { title: t('subs.memo'), dataIndex: 'memo', render: (memo: string) => memo || '—' },
    { title: t('subs.createdAt'), dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
    actionsColumn(
      (sub) => <RowActions onEdit={() => setEditing({ id: sub.id, ip: sub.ip })} editLabel={t('subs.edit')} />,
      t('subs.actions'),
    ),
  ];

  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('subs.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('subs.hint')}</Typography.Paragraph>
      <ListToolbar justify="flex-start">
        <Input
          aria-label={t('subs.add')}
          placeholder={t('subs.placeholder')}
          value={adding}
          onChange={(e) => setAdding(e.target.value)}
        />
        <Button
          type="primary"
          disabled={addressesOf(adding).length === 0}
          loading={create.isPending}
          onClick={() => create.mutate(addressesOf(adding))}
        >
          {t('subs.add')}
        </Button>
        <SelectionDelete
          count={ids.length}
          label={t('subs.deleteSelected', { count: ids.length })}
          confirm={t('subs.deleteConfirm', { count: ids.length })}
          pending={remove.isPending}
          onDelete={() => remove.mutate(ids)}
        />
      </ListToolbar>
      <FitTable<SubNode>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={subs.data?.data ?? []}
        loading={subs.isLoading}
        pagination={false}
        rowSelection={rowSelection}
        locale={{ emptyText: t('subs.empty') }}
      />
      <Modal
        open={editing !== null}
        title={t('subs.editTitle')}
        okText={t('subs.save')}
        confirmLoading={update.isPending}
        onOk={() => editing && update.mutate(editing)}
        onCancel={() => setEditing(null)}
        destroyOnHidden
      >
        <Input
          aria-label={t('subs.ip')}
          value={editing?.ip ?? ''}
          onChange={(e) => setEditing((current) => current && { ...current, ip: e.target.value.trim() })}
        />
      </Modal>
    </>
  );
}
