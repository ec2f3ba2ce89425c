import {
  type DbBackup,
  type DbBackupState,
  type DbBackupStatus,
  dbBackupRoutes,
  formatBytesText,
} from '@rampart/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Modal, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { showApiError } from '../../../app/show-error';
import { toast } from '../../../app/toast';
import { DateTime } from '../../../components/DateTime';
import { DeleteButton } from '../../../components/DeleteButton';
import type { ListColumns } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { actionsColumn } from '../../../components/RowActions';
import { saveResponse } from '../../../features/download/save-file';
import { useListSearch } from '../../../features/lists/use-list-search';
import { callAuthedRaw } from '../../../session/call-authed';

/** How often the page reloads while a backup runs. */
export const DB_BACKUP_REFRESH_MS = 2000;

const STATUS_COLORS: Readonly<Record<DbBackupStatus, string>> = {
  running: 'processing',
  done: 'success',
  failed: 'error',
};

/**
 * The backups (`client/setting/DBBackup/backups`), newest first, paged on the server: back up now,
 * download, delete, and restore after a confirmation that says what a restore does on this store.
 */
export function DbBackupsTable({ state }: { state: DbBackupState }) {
  const { t } = useTranslation('dbBackup');
  const canWrite = useCan('client.settings.write');
  const search = useListSearch([]);
  const list = useQuery({
    ...routeQuery('client', dbBackupRoutes.listDbBackups, {
      query: { page: search.page, pageSize: search.pageSize },
    }),
    refetchInterval: state.running ? DB_BACKUP_REFRESH_MS : false,
  });
  const [restoring, setRestoring] = useState<DbBackup | null>(null);
  const create = useRouteMutation('client', dbBackupRoutes.createDbBackup, {
    input: () => ({}),
    invalidates: changes('dbBackups'),
    success: () => t('started'),
  });
  const remove = useRouteMutation('client', dbBackupRoutes.deleteDbBackup, {
    input: (id: number) => ({ params: { id } }),
    invalidates: changes('dbBackups'),
    success: () => t('deleted'),
  });
  const restore = useRouteMutation('client', dbBackupRoutes.restoreDbBackup, {
    input: (id: number) => ({ params: { id } }),
    invalidates: changes('dbBackups'),
    onSuccess: (reply) => toast.success(reply.data.staged ? t('restoreStaged') : t('restored')),
  });
  const [downloading, setDownloading] = useState<number | null>(null);
  const download = useMutation({
    mutationFn: async (row: DbBackup) => {
      setDownloading(row.id);
      return saveResponse(
        await callAuthedRaw('client', dbBackupRoutes.downloadDbBackup, { params: { id: row.id } }),
        row.fileName,
      );
    },
    onSettled: () => setDownloading(null),
    onSuccess: (name) => toast.success(t('downloaded', { name })),
    onError: (error) => showApiError(error),
  });

  const columns: ListColumns<DbBackup> = [
    { title: t('columns.createdAt'), dataIndex: 'createdAt', render: (v: string) => <DateTime value={v} /> },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      render: (status: DbBackupStatus, row) => {
        const tag = <Tag color={STATUS_COLORS[status]}>{t(`status.${status}`)}</Tag>;
        return row.error ? <Tooltip title={row.error}>{tag}</Tooltip> : tag;
      },
    },
    { title: t('columns.trigger'), dataIndex: 'trigger', render: (v: DbBackup['trigger']) => t(`trigger.${v}`) },
    { title: t('columns.bytes'), dataIndex: 'bytes', align: 'right', render: (v: number) => formatBytesText(v) },
    { title: t('columns.version'), dataIndex: 'version' },
    actionsColumn<DbBackup>((row) => (
      <Space size="small">
        <Button
          size="small"
          disabled={row.status !== 'done'}
          loading={downloading === row.id}
          onClick={() => download.mutate(row)}
        >
          {t('download')}
        </Button>
        {canWrite && (
          <>
            <Button size="small" danger disabled={row.status !== 'done'} onClick={() => setRestoring(row)}>
              {t('restore')}
            </Button>
            <DeleteButton
              confirm={t('deleteConfirm')}
              disabled={row.status === 'running'}
              pending={remove.isPending && remove.variables === row.id}
              onConfirm={() => remove.mutate(row.id)}
            />
          </>
        )}
      </Space>
    )),
  ];

  return (
    <>
      <Typography.Title level={5}>{t('listTitle')}</Typography.Title>
      {canWrite && (
        <Button
          type="primary"
          style={{ marginBottom: 16 }}
          loading={create.isPending || state.running !== null}
          onClick={() => create.mutate(undefined)}
        >
          {state.running ? t('running', { bytes: formatBytesText(state.running.bytes) }) : t('backUpNow')}
        </Button>
      )}
      <ListTable<DbBackup> rowKey="id" columns={columns} list={list} paging={search} emptyText={t('empty')} />
      <Modal
        open={restoring !== null}
        title={t('restoreConfirm')}
        okText={t('restore')}
        okButtonProps={{ danger: true, loading: restore.isPending }}
        onOk={() => restoring && restore.mutate(restoring.id, { onSettled: () => setRestoring(null) })}
        onCancel={() => setRestoring(null)}
        destroyOnHidden
      >
        {state.kind === 'postgres' ? t('restoreTextPostgres') : t('restoreTextPglite')}
      </Modal>
    </>
  );
}
