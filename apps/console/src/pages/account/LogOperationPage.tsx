import { type AuditRecord, auditRoutes, HTTP_METHODS } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Flex, Input, Select, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../app/route-query';
import { useTier } from '../../app/tier-context';
import { DateTime } from '../../components/DateTime';
import type { ListColumns } from '../../components/FitTable';
import { ListTable } from '../../components/ListTable';
import { PageTitle } from '../../components/PageTitle';
import { SearchBox } from '../../components/SearchBox';
import { urlQuery, useListSearch } from '../../features/lists/use-list-search';
import type { LocaleResources } from '../../i18n/resources';

const FILTERS = ['accountName', 'method', 'url', 'reqID', 'startTime', 'endTime'] as const;

/** A route id that has a name in the `auditActions` texts. */
type NamedAction = keyof LocaleResources['auditActions'];

/**
 * `/{tier}/userManagement/logOperation`: the audit log the caller may read (its own records and
 * those of every account below it), filtered and paged on the server; filters live in the URL.
 */
export function LogOperationPage() {
  const { t } = useTranslation(['audit', 'shell', 'auditActions']);
  const tier = useTier();
  const search = useListSearch(FILTERS);
  const { accountName, url, reqID, startTime, endTime } = search.filters;
  const filters = urlQuery(auditRoutes.listAuditLogs.request.query, search, FILTERS);
  const query = { page: search.page, pageSize: search.pageSize, ...filters };
  const list = useQuery(routeQuery(tier, auditRoutes.listAuditLogs, { params: { auth: tier }, query }));

  // The IP and the request id are for support: in the column chooser, so the log fits 1280 px.
  const columns: ListColumns<AuditRecord> = [
    { title: t('time'), dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
    {
      title: t('account'),
      key: 'account',
      render: (_, row) =>
        row.realAccountName ? t('actingAs', { real: row.realAccountName, account: row.accountName }) : row.accountName,
    },
    { title: t('method'), dataIndex: 'method' },
    {
      title: t('action'),
      key: 'action',
      // The name in the reader's language; the route id and the path stay on hover for support. A
      // record of a route removed since has no name and shows its id.
      render: (_, row) => (
        <span title={`${row.action}\n${row.url}`}>
          {t(row.action as NamedAction, { ns: 'auditActions', keySeparator: false, defaultValue: row.action })}
        </span>
      ),
    },
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
    { title: t('ip'), dataIndex: 'ip', defaultHidden: true },
    {
      title: t('reqID'),
      dataIndex: 'reqID',
      defaultHidden: true,
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
          value={filters.method}
          options={HTTP_METHODS.filter((m) => m !== 'GET').map((m) => ({ value: m, label: m }))}
          onChange={(value?: string) => search.setFilters({ method: value })}
        />
        <SearchBox label={t('url')} value={url} onSearch={(v) => search.setFilters({ url: v })} />
        <SearchBox label={t('reqID')} value={reqID} onSearch={(v) => search.setFilters({ reqID: v })} />
        <Input
          type="datetime-local"
          aria-label={t('startTime')}
          addonBefore={t('startTime')}
          style={{ width: 270 }}
          value={localInput(startTime)}
          onChange={(e) => search.setFilters({ startTime: isoOf(e.target.value) })}
        />
        <Input
          type="datetime-local"
          aria-label={t('endTime')}
          addonBefore={t('endTime')}
          style={{ width: 270 }}
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
        expandable={{ expandedRowRender: (row) => <RecordDetail record={row} /> }}
      />
    </>
  );
}

const OP_TEXT = { insert: 'opInsert', update: 'opUpdate', delete: 'opDelete' } as const;

/** A value as the log shows it: strings as they are, everything else as JSON; absent as a dash. */
function shown(value: unknown): string {
  if (value === undefined) return '–';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The expanded row: the request as sent, then each stored row the call changed, before and after. */
function RecordDetail({ record }: { record: AuditRecord }) {
  const { t } = useTranslation('audit');
  return (
    <Flex vertical gap={12}>
      <div>
        <Typography.Text strong>{t('request')}</Typography.Text>
        <pre style={{ margin: 0 }}>
          {JSON.stringify({ url: record.url, target: record.target, changes: record.changes }, null, 2)}
        </pre>
      </div>
      <div>
        <Typography.Text strong>{t('rowChanges')}</Typography.Text>
        {record.rowChanges.length === 0 ? (
          <Typography.Paragraph type="secondary">{t('noRowChanges')}</Typography.Paragraph>
        ) : (
          record.rowChanges.map((change, index) => {
            const fields = Object.keys({ ...change.before, ...change.after });
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the changes of one record never reorder
              <div key={index} style={{ marginTop: 8 }}>
                <Typography.Text code>{`${change.table} #${change.id}`}</Typography.Text>{' '}
                <Tag>{t(OP_TEXT[change.op])}</Tag>
                <Table
                  size="small"
                  pagination={false}
                  rowKey="field"
                  aria-label={`${change.table} #${change.id}`}
                  dataSource={fields.map((field) => ({
                    field,
                    before: change.before ? shown(change.before[field]) : '–',
                    after: change.after ? shown(change.after[field]) : '–',
                  }))}
                  columns={[
                    { title: t('field'), dataIndex: 'field' },
                    { title: t('before'), dataIndex: 'before' },
                    { title: t('after'), dataIndex: 'after' },
                  ]}
                />
              </div>
            );
          })
        )}
      </div>
    </Flex>
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
