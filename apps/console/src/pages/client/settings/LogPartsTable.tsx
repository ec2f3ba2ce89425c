import {
  formatBytesText,
  LOG_PARTS_DELETE_MAX,
  LOG_TABLES,
  type LogPart,
  type LogPartRef,
  logSettingRoutes,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { ChoiceFilter } from '../../../components/ChoiceFilter';
import { type ListColumns, ListToolbar } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { actionsColumn, RowActions, SelectionDelete } from '../../../components/RowActions';
import { urlQuery, useListSearch } from '../../../features/lists/use-list-search';

/** The list's filter in the URL. */
const KEYS = ['table'] as const;

const keyOf = (part: LogPartRef) => `${part.table}/${part.part}`;
/** `20261110` → `2026-11-10`. */
const dayOf = (part: string) => `${part.slice(0, 4)}-${part.slice(4, 6)}-${part.slice(6, 8)}`;

/**
 * The analytics store's parts (`client/setting/log/parts`): a table's rows of one UTC day, newest
 * day first, paged and filtered by table on the server (both in the URL). A part is deleted alone
 * or with the others chosen, after asking; the page says what that does to the statistics.
 */
export function LogPartsTable() {
  const { t } = useTranslation('logSetting');
  const canWrite = useCan('client.settings.write');
  const search = useListSearch(KEYS);
  const query = {
    page: search.page,
    pageSize: search.pageSize,
    ...urlQuery(logSettingRoutes.listLogParts.request.query, search, KEYS),
  };
  const list = useQuery(routeQuery('client', logSettingRoutes.listLogParts, { query }));
  const [selected, setSelected] = useState<string[]>([]);
  const forget = (gone: readonly LogPartRef[]) => {
    const keys = new Set(gone.map(keyOf));
    setSelected((current) => current.filter((key) => !keys.has(key)));
  };
  const removeOne = useRouteMutation('client', logSettingRoutes.deleteLogPart, {
    input: (part: LogPart) => ({ body: { table: part.table, part: part.part } }),
    invalidates: changes('logParts'),
    success: () => toastText('deleteSuccess'),
    onSuccess: (_reply, part) => forget([part]),
  });
  const removeMany = useRouteMutation('client', logSettingRoutes.deleteLogParts, {
    input: (items: LogPartRef[]) => ({ body: { items } }),
    invalidates: changes('logParts'),
    success: () => toastText('deleteSuccess'),
    onSuccess: (_reply, items) => forget(items),
  });
  const chosen = (): LogPartRef[] =>
    selected.map((key) => {
      const [table, part] = key.split('/') as [LogPartRef['table'], string];
      return { table, part };
    });

  const columns: ListColumns<LogPart> = [
    {
      title: t('table'),
      dataIndex: 'table',
      render: (table: LogPart['table']) => (
        <>
          {t(`tables.${table}`)} <Typography.Text type="secondary">({table})</Typography.Text>
        </>
      ),
    },
    { title: t('day'), dataIndex: 'part', render: (part: string) => dayOf(part) },
    { title: t('rows'), dataIndex: 'rows', align: 'right', render: (rows: number) => rows.toLocaleString() },
    {
      title: t('bytes'),
      dataIndex: 'bytes',
      align: 'right',
      render: (bytes: number | null) => (bytes === null ? t('bytesUnknown') : formatBytesText(bytes)),
    },
    ...(canWrite
      ? [
          actionsColumn<LogPart>((part) => (
            <RowActions
              deleteConfirm={t('deleteConfirm', { table: part.table, day: dayOf(part.part) })}
              deleting={removeOne.isPending && removeOne.variables === part}
              onDelete={() => removeOne.mutate(part)}
            />
          )),
        ]
      : []),
  ];

  return (
    <>
      <Typography.Title level={5}>{t('partsTitle')}</Typography.Title>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 820 }}>
        {t('partsIntro')}
      </Typography.Paragraph>
      <ListToolbar style={{ marginBottom: 16 }}>
        <ChoiceFilter
          label={t('tableFilter')}
          value={search.filters.table}
          allLabel={t('allTables')}
          options={LOG_TABLES.map((table) => ({ value: table, label: t(`tables.${table}`) }))}
          onChange={(table) => search.setFilters({ table })}
          width={240}
        />
        {canWrite && (
          <SelectionDelete
            count={selected.length}
            label={t('bulkDelete', { count: selected.length })}
            confirm={t('bulkDeleteConfirm', { count: selected.length })}
            pending={removeMany.isPending}
            onDelete={() => removeMany.mutate(chosen())}
          />
        )}
      </ListToolbar>
      <ListTable<LogPart>
        rowKey={keyOf}
        columns={columns}
        rowSelection={
          canWrite
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected((keys as string[]).slice(0, LOG_PARTS_DELETE_MAX)),
              }
            : undefined
        }
        list={list}
        paging={search}
        emptyText={search.filters.table ? t('noMatch') : t('empty')}
      />
    </>
  );
}
