import { type InitializedNode, nodeOperationRoutes as ops, type Zone } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { FormModal } from '../../../components/FormModal';
import { ListTable } from '../../../components/ListTable';
import { actionsColumn, RowActions } from '../../../components/RowActions';
import { RowDrawer } from '../../../components/RowDrawer';
import { pendingFor } from '../../../features/lists/row-pending';
import { useLocalPaging } from '../../../features/lists/use-list-search';
import { schemaRules } from '../../../forms/zod-rules';

const renameRules = schemaRules(ops.renameZoneNode.request.body, { id: 1 });
/** Lists that show a zone's nodes or count them. */
/**
 * The initialised nodes of one zone, paged, each with rename and "remove from zone" (back to the
 * waiting nodes; refused with 202003 while it sits in a group). Closed when `zone` is null.
 */
export function ZoneNodesDrawer({ zone, onClose }: { zone: Zone | null; onClose: () => void }) {
  const { t } = useTranslation('nodeOps');
  return (
    <RowDrawer row={zone} title={(zone) => t('zoneNodes.title', { name: zone.name })} size={720} onClose={onClose}>
      {(zone) => <ZoneNodes zone={zone} />}
    </RowDrawer>
  );
}

function ZoneNodes({ zone }: { zone: Zone }) {
  const { t } = useTranslation(['nodeOps', 'nodes']);
  const paging = useLocalPaging();
  const params = { zoneID: zone.id };
  const query = { page: paging.page, pageSize: paging.pageSize };
  const nodes = useQuery(routeQuery('client', ops.listZoneNodes, { params, query }));
  const [renaming, setRenaming] = useState<InitializedNode | null>(null);
  const remove = useRouteMutation('client', ops.removeZoneNode, {
    input: (node: InitializedNode) => ({ params, body: { id: node.id } }),
    invalidates: changes('nodes'),
    success: () => toastText('setSuccess'),
  });

  const columns: TableColumnsType<InitializedNode> = [
    { title: t('zoneNodes.name'), dataIndex: 'name' },
    { title: t('nodes:ips'), dataIndex: 'ips', render: (ips: string[]) => ips.join(', ') },
    {
      title: t('status.title'),
      dataIndex: 'status',
      render: (value: InitializedNode['status']) => (
        <Tag color={value === 'on' ? 'blue' : 'red'}>{t(`status.${value}`)}</Tag>
      ),
    },
    {
      title: t('nodes:connection.title'),
      dataIndex: 'connection',
      render: (value: InitializedNode['connection']) => t(`nodes:connection.${value}`),
    },
    actionsColumn(
      (node) => (
        <RowActions
          onEdit={() => setRenaming(node)}
          editLabel={t('zoneNodes.rename')}
          deleteLabel={t('zoneNodes.remove')}
          deleteConfirm={t('zoneNodes.removeConfirm', { name: node.name })}
          deleting={pendingFor(remove, node.id)}
          onDelete={() => remove.mutate(node)}
        />
      ),
      '',
    ),
  ];

  return (
    <>
      <ListTable<InitializedNode>
        rowKey="id"
        size="small"
        columns={columns}
        list={nodes}
        paging={paging}
        emptyText={t('zoneNodes.empty')}
      />
      <RenameNodeModal zoneId={zone.id} node={renaming} onClose={() => setRenaming(null)} />
    </>
  );
}

function RenameNodeModal({
  zoneId,
  node,
  onClose,
}: {
  zoneId: number;
  node: InitializedNode | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('nodeOps');
  const [form] = Form.useForm<{ name: string }>();
  const rename = useRouteMutation('client', ops.renameZoneNode, {
    input: (values: { name: string }) => ({
      params: { zoneID: zoneId },
      body: { id: node?.id ?? 0, name: values.name },
    }),
    invalidates: changes('nodes'),
    success: () => toastText('updateSuccess'),
    form: { instance: form, fields: ['name'] },
    onSuccess: onClose,
  });
  return (
    <FormModal<{ name: string }>
      open={node !== null}
      title={node ? t('zoneNodes.renameTitle', { name: node.name }) : ''}
      form={form}
      pending={rename.isPending}
      onCancel={onClose}
      initialValues={{ name: node?.name ?? '' }}
      onSubmit={(values) => rename.mutate(values)}
    >
      <Form.Item name="name" label={t('zoneNodes.name')} rules={renameRules('name')} required>
        <Input autoFocus />
      </Form.Item>
    </FormModal>
  );
}
