import {
  clientLogPushLogs,
  LOG_PUSH_LOG_STATUSES,
  type LogPushLog,
  type LogPushLogStatus,
  PAGE_SIZE_MAX,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Input, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../app/route-query';
import { DateTime } from '../../components/DateTime';
import type { ListColumns } from '../../components/FitTable';
import { ListTable } from '../../components/ListTable';
import { AccountPicker } from '../../features/accounts/AccountPicker';
import { type ListSearch, urlQuery } from '../../features/lists/use-list-search';
import { formatValue } from '../../features/statistics/stat-format';
import { FilterNumber, numberRefusal } from '../../forms/FilterNumber';
import { useLocale } from '../../i18n';
import { type PushTier, pushRoutes } from './log-push-routes';
import { LOG_FILTER_KEYS, type LogFilterKey, type PageKey } from './log-push-search';
import { isoOf, localInput } from './ManualPushModal';

/** The delivery log's id filter as the contract takes it (the same on both consoles). */
const ID_FILTER = clientLogPushLogs.request.query.shape.ID;

const STATUS_COLORS: Readonly<Record<LogPushLogStatus, string>> = {
  delivered: 'success',
  retrying: 'warning',
  dead: 'error',
};

/** The delivery log's filters as typed (sent when Search is pressed). */
interface LogFields {
  eventID?: number;
  status?: LogPushLogStatus;
  /** datetime-local values. */
  start?: string;
  end?: string;
  ID?: number;
  userID?: number;
}

export function LogsTab({ tier, search }: { tier: PushTier; search: ListSearch<PageKey> }) {
  const { t } = useTranslation('logPush');
  const [locale] = useLocale();
  const routes = pushRoutes(tier);
  const query = {
    page: search.page,
    pageSize: search.pageSize,
    ...urlQuery(
      routes.logs.request.query,
      search,
      tier === 'client' ? LOG_FILTER_KEYS : LOG_FILTER_KEYS.filter((k) => k !== 'userID'),
    ),
  };
  const list = useQuery(routeQuery(tier, routes.logs, { query }));
  // The caller's events name the event filter's choices.
  const events = useQuery(routeQuery(tier, routes.list, { query: { page: 1, pageSize: PAGE_SIZE_MAX } }));
  const eventOptions = (events.data?.data ?? []).map((event) => ({ value: event.id, label: event.name }));
  const number = (n: number) => n.toLocaleString(locale.replace('_', '-'));

  const columns: ListColumns<LogPushLog> = [
    { title: t('logColumns.createdAt'), dataIndex: 'createdAt', render: (at: string) => <DateTime value={at} /> },
    { title: t('logColumns.event'), dataIndex: 'eventName', ellipsis: true, maxWidth: 130 },
    ...(tier === 'client'
      ? [{ title: t('logColumns.userID'), dataIndex: 'userID', align: 'right' as const, defaultHidden: true }]
      : []),
    { title: t('logColumns.records'), dataIndex: 'records', align: 'right', render: number },
    {
      title: t('logColumns.bytes'),
      dataIndex: 'bytes',
      align: 'right',
      render: (n: number) => formatValue(n, 'bytes', locale),
    },
    {
      title: t('logColumns.status'),
      key: 'status',
      render: (_: unknown, row) => (
        <Space size={4}>
          <Tag color={STATUS_COLORS[row.status]}>{t(`statuses.${row.status}`)}</Tag>
          {row.manual && <Tag>{t('manualTag')}</Tag>}
        </Space>
      ),
    },
    { title: t('logColumns.attempt'), dataIndex: 'attempt', align: 'right', defaultHidden: true },
    {
      title: t('logColumns.error'),
      dataIndex: 'error',
      ellipsis: true,
      maxWidth: 150,
      render: (error: string | null) => error ?? '—',
    },
    {
      title: t('logColumns.range'),
      key: 'range',
      render: (_: unknown, row) =>
        row.rangeStart && row.rangeEnd ? (
          <Flex vertical>
            <DateTime value={row.rangeStart} />
            <DateTime value={row.rangeEnd} />
          </Flex>
        ) : (
          '—'
        ),
    },
    { title: t('logColumns.id'), dataIndex: 'id', align: 'right', defaultHidden: true },
  ];

  // The URL's ids are text: the pickers compare numbers.
  const id = (value: unknown) => (value === undefined ? undefined : Number(value));
  const initial: LogFields = {
    eventID: id(query.eventID),
    status: query.status,
    start: query.createdAtStart ? localInput(Date.parse(query.createdAtStart)) : undefined,
    end: query.createdAtEnd ? localInput(Date.parse(query.createdAtEnd)) : undefined,
    ID: id(query.ID),
    userID: id(query.userID),
  };
  return (
    <>
      {/* Keyed by the URL's filters: back and forward show the search of that page. */}
      <LogSearchRow
        key={LOG_FILTER_KEYS.map((k) => search.filters[k] ?? '').join('\u0000')}
        tier={tier}
        initial={initial}
        eventOptions={eventOptions}
        onSearch={(fields) =>
          search.setFilters({
            eventID: fields.eventID === undefined ? undefined : String(fields.eventID),
            status: fields.status,
            createdAtStart: fields.start ? isoOf(fields.start) : undefined,
            createdAtEnd: fields.end ? isoOf(fields.end) : undefined,
            ID: fields.ID === undefined ? undefined : String(fields.ID),
            userID: fields.userID === undefined ? undefined : String(fields.userID),
          } satisfies Partial<Record<LogFilterKey, string | undefined>>)
        }
      />
      <ListTable<LogPushLog>
        rowKey="id"
        size="small"
        columns={columns}
        list={list}
        paging={search}
        emptyText={t('logsEmpty')}
      />
    </>
  );
}

function LogSearchRow({
  tier,
  initial,
  eventOptions,
  onSearch,
}: {
  tier: PushTier;
  initial: LogFields;
  eventOptions: { value: number; label: string }[];
  onSearch: (fields: LogFields) => void;
}) {
  const { t } = useTranslation('logPush');
  const [draft, setDraft] = useState<LogFields>(initial);
  const set = (change: Partial<LogFields>) => setDraft((previous) => ({ ...previous, ...change }));
  // A refused id is named under its box and searches nothing.
  const submit = () => numberRefusal(ID_FILTER, draft.ID) === null && onSearch(draft);
  return (
    <Flex gap="small" wrap align="center" style={{ marginBottom: 16 }}>
      <Select<number>
        allowClear
        style={{ width: 180 }}
        aria-label={t('filters.event')}
        placeholder={t('filters.allEvents')}
        value={draft.eventID}
        options={
          draft.eventID === undefined || eventOptions.some((o) => o.value === draft.eventID)
            ? eventOptions
            : [...eventOptions, { value: draft.eventID, label: `#${draft.eventID}` }]
        }
        onChange={(eventID?: number) => set({ eventID })}
      />
      <Select<LogPushLogStatus>
        allowClear
        style={{ width: 140 }}
        aria-label={t('filters.status')}
        placeholder={t('filters.allStatuses')}
        value={draft.status}
        options={LOG_PUSH_LOG_STATUSES.map((value) => ({ value, label: t(`statuses.${value}`) }))}
        onChange={(status?: LogPushLogStatus) => set({ status })}
      />
      <Flex gap={4} align="center">
        <Input
          type="datetime-local"
          aria-label={t('filters.start')}
          value={draft.start ?? ''}
          onChange={(e) => set({ start: e.target.value || undefined })}
          style={{ width: 200 }}
        />
        <span aria-hidden>–</span>
        <Input
          type="datetime-local"
          aria-label={t('filters.end')}
          value={draft.end ?? ''}
          onChange={(e) => set({ end: e.target.value || undefined })}
          style={{ width: 200 }}
        />
      </Flex>
      <FilterNumber
        schema={ID_FILTER}
        label={t('filters.id')}
        width={120}
        value={draft.ID}
        onChange={(ID) => set({ ID })}
        onPressEnter={submit}
      />
      {tier === 'client' && (
        <AccountPicker
          allowClear
          ariaLabel={t('filters.customer')}
          placeholder={t('filters.allCustomers')}
          value={draft.userID}
          onChange={(userID) => set({ userID })}
          style={{ width: 200 }}
        />
      )}
      <Button type="primary" onClick={submit}>
        {t('search')}
      </Button>
    </Flex>
  );
}
