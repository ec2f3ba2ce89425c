import { type AuditRecord, auditRoutes, HTTP_METHODS } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Flex, Input, Select, type TableColumnsType, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../app/route-query';
import { useTier } from '../../app/tier-context';
import { DateTime } from '../../components/DateTime';
import { ListTable } from '../../components/ListTable';
import { PageTitle } from '../../components/PageTitle';
import { SearchBox } from '../../components/SearchBox';
import { oneOf, useListSearch } from '../../features/lists/use-list-search';

const FILTERS = ['accountName', 'method', 'url', 'reqID', 'startTime', 'endTime'] as const;

/**
 * `/{tier}/userManagement/logOperation`: the audit log the caller may read (its own records and
 * those of every account below it), filtered and paged on the server; filters live in the URL.
 */
export function LogOperationPage() {
  const { t } = useTranslation(['audit', 'shell']);
  const tier = useTier();
  const search = useListSearch(FILTERS);
  const { accountName, url, reqID, startTime, endTime } = search.filters;
  const method = oneOf(search.filters.method, HTTP_METHODS);
  const query = { page: search.page, pageSize: search.pageSize, accountName, method, url, reqID, startTime, endTime };
  const list = useQuery(routeQuery(tier, auditRoutes.listAuditLogs, { params: { auth: tier }, query }));

  const columns: TableColumnsType<AuditRecord> = [
    { title: t('time'), dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
    {
      title: t('account'),
      key: 'account',
      render: (_, row) =>
        row.realAccountName ? t('actingAs', { real: row.realAccountName, account: row.accountName }) : row.accountName,
    },
    { title: t('method'), dataIndex: 'method' },
    { title: t('action'), key: 'action', render: (_, row) => <span title={row.url}>{row.action}</span> },
    {
      title: t('outcome'),
      key: 'outcome',
      render: (_, row) =>
        row.pending ? (
          <Tag>{t('pending')}</Tag>
        ) : row.code === 0 ? (
          <Tag color="green">{t('ok')}</Tag>
        ) : (
          <Tag color="red">{row.code}</Tag>
        ),
    },
    { title: t('ip'), dataIndex: 'ip' },
    {
      title: t('reqID'),
      dataIndex: 'reqID',
      render: (value: string) => <Typography.Text code>{value}</Typography.Text>,
    },
  ];

  return (
    <>
      <PageTitle>{t('shell:menu.logOperation')}</PageTitle>
      <Flex wrap gap={8} style={{ marginBottom: 16 }}>
        <SearchBox
          label={t('accountName')}
          value={accountName}
          onSearch={(v) => search.setFilters({ accountName: v })}
        />
        <Select
          allowClear
          aria-label={t('method')}
          placeholder={t('method')}
          style={{ width: 120 }}
          value={method}
          options={HTTP_METHODS.filter((m) => m !== 'GET').map((m) => ({ value: m, label: m }))}
          onChange={(value?: string) => search.setFilters({ method: value })}
        />
        <SearchBox label={t('url')} value={url} onSearch={(v) => search.setFilters({ url: v })} />
        <SearchBox label={t('reqID')} value={reqID} onSearch={(v) => search.setFilters({ reqID: v })} />
        <Input
          type="datetime-local"
          aria-label={t('startTime')}
          style={{ width: 200 }}
          value={localInput(startTime)}
          onChange={(e) => search.setFilters({ startTime: isoOf(e.target.value) })}
        />
        <Input
          type="datetime-local"
          aria-label={t('endTime')}
          style={{ width: 200 }}
          value={localInput(endTime)}
          onChange={(e) => search.setFilters({ endTime: isoOf(e.target.value) })}
        />
      </Flex>
      <ListTable<AuditRecord>
        rowKey="id"
        columns={columns}
        list={list}
        paging={search}
        emptyText={t('empty')}
        expandable={{
          expandedRowRender: (row) => (
            <pre style={{ margin: 0 }}>
              {JSON.stringify({ url: row.url, target: row.target, changes: row.changes }, null, 2)}
            </pre>
          ),
        }}
      />
    </>
  );
}

/** `2024-05-01T10:00` (local time, as the input shows it) → ISO; '' → undefined. */
function isoOf(local: string): string | undefined {
  const time = local ? new Date(local) : null;
  return time && !Number.isNaN(time.getTime()) ? time.toISOString() : undefined;
}

/** ISO → the input's local `YYYY-MM-DDTHH:mm`. */
function localInput(iso: string | undefined): string {
  if (!iso) return '';
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return '';
  const local = new Date(time.getTime() - time.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
