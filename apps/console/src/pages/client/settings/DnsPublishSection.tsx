import { type DnsUnprocessed, dnsPublishRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toast } from '../../../app/toast';
import { type ListColumns, ListToolbar } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { actionsColumn } from '../../../components/RowActions';
import { useListSearch } from '../../../features/lists/use-list-search';

/**
 * Under the DNS setting: the record changes the provider refused or failed (`dns/unprocessed`),
 * newest first, each with the provider's error, its attempts and when it is tried again; the
 * operator retries one or the chosen ones now, or re-publishes every record (`dns/recovery`) after
 * confirming. Each answer says what the pass wrote and how many changes failed.
 */
export function DnsPublishSection() {
  const { t } = useTranslation('dnsSetting');
  const canWrite = useCan('client.settings.write');
  const search = useListSearch([]);
  const list = useQuery(
    routeQuery('client', dnsPublishRoutes.listDnsUnprocessed, {
      query: { page: search.page, pageSize: search.pageSize },
    }),
  );
  const [selected, setSelected] = useState<number[]>([]);
  const [recovering, setRecovering] = useState(false);
  const passText = (reply: { data: { ran: boolean; written: number; failed: number } }) =>
    reply.data.ran
      ? t('publish.passDone', { written: reply.data.written, failed: reply.data.failed })
      : t('publish.passElsewhere');
  const retry = useRouteMutation('client', dnsPublishRoutes.retryDnsUnprocessed, {
    input: (ids: number[]) => ({ body: { ids } }),
    invalidates: changes('dnsUnprocessed'),
    onSuccess: (reply) => {
      toast.success(passText(reply));
      setSelected([]);
    },
  });
  const recover = useRouteMutation('client', dnsPublishRoutes.recoverDns, {
    input: () => ({}),
    invalidates: changes('dnsUnprocessed'),
    onSuccess: (reply) => toast.success(passText(reply)),
  });

  const columns: ListColumns<DnsUnprocessed> = [
    { title: t('publish.name'), dataIndex: 'name' },
    {
      title: t('publish.record'),
      key: 'record',
      render: (_: unknown, row: DnsUnprocessed) => (
        <Space size={4} wrap>
          <Tag>{row.type}</Tag>
          <Tag color={row.action === 'delete' ? 'red' : 'blue'}>{t(`publish.actions.${row.action}`)}</Tag>
          <Typography.Text>{row.values.join(', ')}</Typography.Text>
        </Space>
      ),
    },
    { title: t('publish.line'), dataIndex: 'line' },
    {
      title: t('publish.error'),
      dataIndex: 'error',
      render: (error: string) => <Typography.Text type="danger">{error}</Typography.Text>,
    },
    { title: t('publish.attempts'), dataIndex: 'attempts', align: 'right' },
    {
      title: t('publish.nextAttempt'),
      dataIndex: 'nextAttemptAt',
      render: (at: string) => new Date(at).toLocaleString(),
    },
    ...(canWrite
      ? [
          actionsColumn<DnsUnprocessed>((row) => (
            <Button
              size="small"
              loading={retry.isPending && retry.variables?.includes(row.id)}
              onClick={() => retry.mutate([row.id])}
            >
              {t('publish.retry')}
            </Button>
          )),
        ]
      : []),
  ];

  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 32 }}>
        {t('publish.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 820 }}>
        {t('publish.intro')}
      </Typography.Paragraph>
      {canWrite && (
        <ListToolbar style={{ marginBottom: 16 }}>
          <Button disabled={selected.length === 0} loading={retry.isPending} onClick={() => retry.mutate(selected)}>
            {t('publish.retrySelected', { count: selected.length })}
          </Button>
          <Button onClick={() => setRecovering(true)}>{t('publish.recovery')}</Button>
        </ListToolbar>
      )}
      <ListTable<DnsUnprocessed>
        rowKey="id"
        columns={columns}
        rowSelection={
          canWrite ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined
        }
        list={list}
        paging={search}
        emptyText={t('publish.empty')}
      />
      <Modal
        open={recovering}
        title={t('publish.recoveryConfirm')}
        okButtonProps={{ loading: recover.isPending }}
        onOk={() => recover.mutate(undefined, { onSettled: () => setRecovering(false) })}
        onCancel={() => setRecovering(false)}
        destroyOnHidden
      >
        {t('publish.recoveryWarning')}
      </Modal>
    </>
  );
}
