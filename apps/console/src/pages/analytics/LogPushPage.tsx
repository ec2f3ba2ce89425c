import {
  LOG_PUSH_EVENTS_MAX,
  LOG_PUSH_LOG_STATUSES,
  type LogPushEvent,
  type LogPushLog,
  type LogPushLogStatus,
  type LogPushState,
  PAGE_SIZE_MAX,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Input, InputNumber, Select, Space, Switch, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/account-context';
import { changes } from '../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../app/route-query';
import { toast, toastText } from '../../app/toast';
import { DateTime } from '../../components/DateTime';
import type { ListColumns } from '../../components/FitTable';
import { ListTable } from '../../components/ListTable';
import { PageTitle } from '../../components/PageTitle';
import { actionsColumn, RowActions } from '../../components/RowActions';
import { type ListSearch, urlQuery, useListSearch } from '../../features/lists/use-list-search';
import { formatValue } from '../../features/statistics/stat-format';
import { useSiteOptions, useZoneOptions } from '../../features/statistics/use-scope-options';
import { useStatisticsTier } from '../../features/statistics/use-statistics-tier';
import { useLocale } from '../../i18n';
import { AccountPicker } from '../client/sites/AccountPicker';
import { LogPushEventModal } from './LogPushEventModal';
import { destinationSummary, type PushTier, pushRoutes, updateBodyOf } from './log-push-routes';
import { isoOf, localInput, ManualPushModal } from './ManualPushModal';

const STATE_COLORS: Readonly<Record<LogPushState, string>> = { active: 'success', retrying: 'warning', dead: 'error' };
const STATUS_COLORS: Readonly<Record<LogPushLogStatus, string>> = {
  delivered: 'success',
  retrying: 'warning',
  dead: 'error',
};
/** The URL's keys of the page: the tab, then the delivery log's filters. */
const PAGE_KEYS = ['tab', 'eventID', 'status', 'createdAtStart', 'createdAtEnd', 'ID', 'userID'] as const;
type PageKey = (typeof PAGE_KEYS)[number];
const LOG_FILTER_KEYS = ['eventID', 'status', 'createdAtStart', 'createdAtEnd', 'ID', 'userID'] as const;
type LogFilterKey = (typeof LOG_FILTER_KEYS)[number];

/**
 * `/{tier}/dataAnalysis/logPush` (spec part 2 §3 "Log push event and log", §7 "Log push"): the
 * caller's push events — where its access, WAF or audit log goes (a webhook, syslog,
 * Elasticsearch/OpenSearch or Splunk), over which of its sites (the operator's: zones), with which
 * filters — made, edited, switched on and off, deleted, and pushed again over a time range; and
 * the delivery log, one row per batch attempt, paged on the server and filtered in the URL (the
 * operator's also by customer).
 */
export function LogPushPage() {
  const { t } = useTranslation(['logPush', 'shell']);
  const tier = useStatisticsTier();
  const search = useListSearch(PAGE_KEYS);
  const tab = search.filters.tab === 'logs' ? 'logs' : 'events';
  return (
    <>
      <PageTitle>{t('shell:menu.logPush')}</PageTitle>
      <Tabs
        activeKey={tab}
        // A tab starts on its first page, without the other tab's filters.
        onChange={(key) =>
          search.setFilters({
            tab: key === 'logs' ? 'logs' : undefined,
            ...Object.fromEntries(LOG_FILTER_KEYS.map((k) => [k, undefined])),
          })
        }
        items={[
          { key: 'events', label: t('tabs.events') },
          { key: 'logs', label: t('tabs.logs') },
        ]}
      />
      {tab === 'events' ? <EventsTab tier={tier} search={search} /> : <LogsTab tier={tier} search={search} />}
    </>
  );
}

/** The names of the caller's sites (customer) or zones (operator), for the scope column. */
function useScopeNames(tier: PushTier): Map<number, string> {
  const sites = useSiteOptions('user', undefined);
  const zones = useZoneOptions(tier);
  const options = tier === 'user' ? sites.options : zones.options;
  return new Map(options.map((option) => [option.value, option.label]));
}

function EventsTab({ tier, search }: { tier: PushTier; search: ListSearch<PageKey> }) {
  const { t } = useTranslation('logPush');
  const routes = pushRoutes(tier);
  const canWrite = useCan(`${tier}.logPush.write`);
  const list = useQuery(routeQuery(tier, routes.list, { query: { page: search.page, pageSize: search.pageSize } }));
  const names = useScopeNames(tier);
  const [editing, setEditing] = useState<LogPushEvent | 'new' | null>(null);
  const [pushing, setPushing] = useState<LogPushEvent | null>(null);
  const remove = useRouteMutation(tier, routes.remove, {
    input: (ids: number[]) => ({ body: { ids } }),
    invalidates: changes('logPushEvents'),
    success: () => toastText('deleteSuccess'),
  });
  const toggle = useRouteMutation(tier, routes.update, {
    input: (event: LogPushEvent) => ({ body: updateBodyOf(event, tier, { enabled: !event.enabled }) as never }),
    invalidates: changes('logPushEvents'),
    success: () => toastText('updateSuccess'),
  });
  // "Send a test": one sample record to the destination now; the answer says whether it was taken.
  const test = useRouteMutation(tier, routes.test, {
    input: (event: LogPushEvent) => ({ body: { id: event.id } }),
    // Outside the delivery order and log: nothing the page shows changes.
    invalidates: [],
    onSuccess: ({ data }) => {
      if (data.ok) toast.success(t('testOk', { ms: data.ms }));
      else toast.error(t('testFailed', { error: data.error ?? '' }));
    },
  });
  const scopeText = (event: LogPushEvent) => {
    const ids = tier === 'user' ? event.siteIDs : event.zoneIDs;
    if (ids.length === 0) return tier === 'user' ? t('allSites') : t('allZones');
    return ids.map((id) => names.get(id) ?? `#${id}`).join(', ');
  };
  const total = list.data?.total;

  // What a 1280-pixel screen shows at once (the log and its scope share a column, the switch sits
  // by the state); the rest waits in the column chooser.
  const columns: ListColumns<LogPushEvent> = [
    { title: t('columns.name'), dataIndex: 'name', maxWidth: 140 },
    {
      title: t('columns.type'),
      key: 'type',
      ellipsis: true,
      maxWidth: 170,
      render: (_: unknown, event) =>
        event.type === 'audit' ? t('types.audit') : `${t(`types.${event.type}`)} · ${scopeText(event)}`,
    },
    {
      title: t('columns.destination'),
      key: 'destination',
      ellipsis: true,
      maxWidth: 170,
      render: (_: unknown, event) => destinationSummary(event.destination, t(`kindShort.${event.destination.kind}`)),
    },
    {
      title: t('columns.state'),
      key: 'state',
      render: (_: unknown, event) => {
        const tag = <Tag color={STATE_COLORS[event.state]}>{t(`states.${event.state}`)}</Tag>;
        return (
          <Space size={4}>
            {canWrite ? (
              <Switch
                size="small"
                checked={event.enabled}
                loading={toggle.isPending && toggle.variables?.id === event.id}
                aria-label={t('enableEvent', { name: event.name })}
                onChange={() => toggle.mutate(event)}
              />
            ) : (
              !event.enabled && <Tag>{t('off')}</Tag>
            )}
            {event.lastError ? <Tooltip title={event.lastError}>{tag}</Tooltip> : tag}
          </Space>
        );
      },
    },
    { title: t('columns.updatedAt'), dataIndex: 'updatedAt', render: (at: string) => <DateTime value={at} /> },
    {
      title: t('columns.lastDeliveredAt'),
      dataIndex: 'lastDeliveredAt',
      defaultHidden: true,
      render: (at: string | null) => <DateTime value={at} />,
    },
    {
      title: t('columns.lastError'),
      dataIndex: 'lastError',
      ellipsis: true,
      maxWidth: 200,
      defaultHidden: true,
      render: (error: string | null) => error ?? '—',
    },
    {
      title: t('columns.createdAt'),
      dataIndex: 'createdAt',
      defaultHidden: true,
      render: (at: string) => <DateTime value={at} />,
    },
  ];
  if (canWrite) {
    // Narrow enough that its three buttons go onto two lines: the table fits 1280 pixels.
    columns.push({
      width: 160,
      ...actionsColumn<LogPushEvent>((event) => (
        <RowActions
          wrap
          onEdit={() => setEditing(event)}
          deleteConfirm={t('deleteConfirm', { name: event.name })}
          onDelete={() => remove.mutate([event.id])}
          deleting={remove.isPending && remove.variables?.[0] === event.id}
        >
          <Button size="small" onClick={() => setPushing(event)}>
            {t('manual')}
          </Button>
          <Button
            size="small"
            loading={test.isPending && test.variables?.id === event.id}
            onClick={() => test.mutate(event)}
          >
            {t('test')}
          </Button>
        </RowActions>
      )),
    });
  }

  return (
    <>
      <Flex gap="small" align="center" wrap style={{ marginBottom: 16 }}>
        {canWrite && (
          <Button type="primary" onClick={() => setEditing('new')}>
            {t('create')}
          </Button>
        )}
        {total !== undefined && (
          <Typography.Text type="secondary">{t('count', { count: total, max: LOG_PUSH_EVENTS_MAX })}</Typography.Text>
        )}
      </Flex>
      <ListTable<LogPushEvent>
        rowKey="id"
        size="small"
        columns={columns}
        list={list}
        paging={search}
        emptyText={t('empty')}
      />
      {canWrite && (
        <>
          <LogPushEventModal tier={tier} event={editing} onClose={() => setEditing(null)} />
          <ManualPushModal tier={tier} event={pushing} onClose={() => setPushing(null)} />
        </>
      )}
    </>
  );
}

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

function LogsTab({ tier, search }: { tier: PushTier; search: ListSearch<PageKey> }) {
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
  const submit = () => onSearch(draft);
  const whole = (value: number | string | null) => (value === null || value === '' ? undefined : Number(value));
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
      <InputNumber
        style={{ width: 120 }}
        aria-label={t('filters.id')}
        placeholder={t('filters.id')}
        min={1}
        precision={0}
        value={draft.ID ?? null}
        onChange={(value) => set({ ID: whole(value) })}
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
