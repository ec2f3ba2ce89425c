import { LOG_EXPORT_TYPES, type LogExport, type LogExportStatus, type LogExportType } from '@rampart/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Flex, Progress, Select, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/account-context';
import { routeQuery, useRouteMutation } from '../../app/route-query';
import { showApiError } from '../../app/show-error';
import { toast } from '../../app/toast';
import { DateTime } from '../../components/DateTime';
import { DeleteButton } from '../../components/DeleteButton';
import type { ListColumns } from '../../components/FitTable';
import { ListTable } from '../../components/ListTable';
import { PageTitle } from '../../components/PageTitle';
import { actionsColumn } from '../../components/RowActions';
import { saveResponse } from '../../features/download/save-file';
import { urlQuery, useListSearch } from '../../features/lists/use-list-search';
import { logExportRoutesOf } from '../../features/logs/log-export-routes';
import { formatValue } from '../../features/statistics/stat-format';
import { useStatisticsTier } from '../../features/statistics/use-statistics-tier';
import { useLocale } from '../../i18n';
import { callAuthedRaw } from '../../session/call-authed';

/** How often the list reloads while an export on it is queued or running. */
export const LOG_EXPORT_REFRESH_MS = 2000;
const LOG_EXPORT_KEYS = ['type', 'sortBy', 'orderBy'] as const;
const STATUS_COLORS: Readonly<Record<LogExportStatus, string>> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
  expired: 'default',
};

/**
 * `/{user,client}/dataAnalysis/logExport` (spec part 2 §3 "Log export entry", §4, §7 "Logs"): the
 * customer's (or the operator's) log export files, paged on the server, with the time range, format, status and a progress bar
 * that refreshes while an export is queued or running; a finished file downloads, a failed export
 * is retried, any is deleted (asked first). Exports are made on the Logs page (its Export button).
 */
export function LogExportPage() {
  const { t } = useTranslation(['logExport', 'logs', 'shell']);
  const [locale] = useLocale();
  const tier = useStatisticsTier();
  const r = logExportRoutesOf(tier);
  /** The list and each export's own call, refreshed after a change. */
  const LISTS = [r.listLogExports, r.getLogExport];
  const search = useListSearch(LOG_EXPORT_KEYS);
  const query = {
    page: search.page,
    pageSize: search.pageSize,
    ...urlQuery(r.listLogExports.request.query, search, LOG_EXPORT_KEYS),
  };
  const type = query.type;
  const list = useQuery({
    ...routeQuery(tier, r.listLogExports, { query }),
    refetchInterval: (q) =>
      q.state.data?.data.some((e) => e.status === 'queued' || e.status === 'running') ? LOG_EXPORT_REFRESH_MS : false,
  });
  const canWrite = useCan(`${tier}.logs.write`);
  const remove = useRouteMutation(tier, r.deleteLogExports, {
    input: (ids: number[]) => ({ body: { ids } }),
    invalidates: LISTS,
    success: () => t('deleted'),
  });
  const retry = useRouteMutation(tier, r.retryLogExports, {
    input: (ids: number[]) => ({ body: { ids } }),
    invalidates: LISTS,
    success: () => t('retried'),
  });
  const [downloading, setDownloading] = useState<number | null>(null);
  const download = useMutation({
    mutationFn: async (row: LogExport) => {
      setDownloading(row.id);
      return saveResponse(await callAuthedRaw(tier, r.downloadLogExport, { params: { id: row.id } }), row.fileName);
    },
    onSettled: () => setDownloading(null),
    onSuccess: (name) => toast.success(t('downloaded', { name })),
    onError: (error) => showApiError(error),
  });

  const columns: ListColumns<LogExport> = [
    { title: t('columns.id'), dataIndex: 'id', maxWidth: 70 },
    {
      title: t('columns.type'),
      dataIndex: 'type',
      maxWidth: 110,
      render: (x: LogExportType) => t(`logs:tabs.${x}`),
    },
    {
      title: t('columns.range'),
      key: 'range',
      maxWidth: 330,
      render: (_: unknown, row) => (
        <span>
          <DateTime value={row.startTime} /> – <DateTime value={row.endTime} />
        </span>
      ),
    },
    {
      title: t('columns.format'),
      key: 'format',
      maxWidth: 130,
      render: (_: unknown, row) => `${t(`formats.${row.format}`)}${row.gzip ? ' · gzip' : ''}`,
    },
    {
      title: t('columns.status'),
      key: 'status',
      maxWidth: 190,
      render: (_: unknown, row) =>
        row.status === 'queued' || row.status === 'running' ? (
          <Flex vertical gap={2}>
            <Tag color={STATUS_COLORS[row.status]}>{t(`statuses.${row.status}`)}</Tag>
            <Progress percent={row.progress} size="small" aria-label={t('progress', { id: row.id })} />
          </Flex>
        ) : row.status === 'failed' && row.error ? (
          <Tooltip title={row.error}>
            <Tag color={STATUS_COLORS.failed}>{t('statuses.failed')}</Tag>
          </Tooltip>
        ) : (
          <Tag color={STATUS_COLORS[row.status]}>{t(`statuses.${row.status}`)}</Tag>
        ),
    },
    {
      title: t('columns.records'),
      dataIndex: 'records',
      align: 'right',
      maxWidth: 100,
      render: (n: number) => n.toLocaleString(locale.replace('_', '-')),
    },
    {
      title: t('columns.size'),
      dataIndex: 'bytes',
      align: 'right',
      maxWidth: 100,
      render: (n: number, row) => (row.status === 'done' ? formatValue(n, 'bytes', locale) : '—'),
    },
    {
      title: t('columns.createdAt'),
      dataIndex: 'createdAt',
      sorter: true,
      sortOrder: search.sortOrder('createdAt'),
      render: (at: string) => <DateTime value={at} />,
    },
    {
      title: t('columns.expiresAt'),
      dataIndex: 'expiresAt',
      defaultHidden: true,
      render: (at: string | null) => (at ? <DateTime value={at} /> : '—'),
    },
    actionsColumn<LogExport>((row) => (
      <Space size="small">
        {row.status === 'done' && (
          <Button size="small" loading={downloading === row.id} onClick={() => download.mutate(row)}>
            {t('download')}
          </Button>
        )}
        {canWrite && row.status === 'failed' && (
          <Button size="small" loading={retry.isPending} onClick={() => retry.mutate([row.id])}>
            {t('retry')}
          </Button>
        )}
        {canWrite && (
          <DeleteButton
            confirm={t('deleteConfirm', { id: row.id })}
            pending={remove.isPending && remove.variables?.[0] === row.id}
            onConfirm={() => remove.mutate([row.id])}
          />
        )}
      </Space>
    )),
  ];

  return (
    <>
      <PageTitle>{t('shell:menu.logExport')}</PageTitle>
      <Flex gap="small" wrap style={{ marginBottom: 16 }}>
        <Select
          allowClear
          style={{ width: 160 }}
          aria-label={t('columns.type')}
          placeholder={t('allTypes')}
          value={type}
          options={LOG_EXPORT_TYPES.map((x) => ({ value: x, label: t(`logs:tabs.${x}`) }))}
          onChange={(value?: string) => search.setFilters({ type: value })}
        />
      </Flex>
      <ListTable<LogExport> rowKey="id" columns={columns} list={list} paging={search} emptyText={t('empty')} />
    </>
  );
}
