import {
  clientAccessLogs,
  clientWafLogs,
  LOG_PAGE_SIZE_MAX,
  LOG_URL_MATCHES,
  type LogRecord,
  userAccessLogs,
  userWafLogs,
  WAF_GROUP_TEXT,
  wafRuleGroup,
} from '@rampart/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Drawer, Flex, Input, InputNumber, Select, Tabs, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/account-context';
import { routeQuery } from '../../app/route-query';
import { DateTime } from '../../components/DateTime';
import type { ListColumns } from '../../components/FitTable';
import { ListTable } from '../../components/ListTable';
import { PageTitle } from '../../components/PageTitle';
import { type ListSearch, useListSearch } from '../../features/lists/use-list-search';
import { StatisticsFilters } from '../../features/statistics/StatisticsFilters';
import { formatValue } from '../../features/statistics/stat-format';
import { useStatisticsFilter } from '../../features/statistics/use-statistics-filter';
import { useStatisticsTier } from '../../features/statistics/use-statistics-tier';
import { useWafColumns } from '../../features/waf/waf-columns';
import { useLocale } from '../../i18n';
import { LogExportButton } from './LogExportButton';

type LogKind = 'access' | 'waf';
type UrlMatch = (typeof LOG_URL_MATCHES)[number];

/** The filters of the search row, as typed (sent only when set). */
interface SearchFields {
  ip?: string;
  status?: number;
  method?: string;
  url?: string;
  urlMatch: UrlMatch;
  reqID?: string;
  ruleId?: number;
  action?: string;
}

/** The time range the page starts with, in hours (the logs of the last hour). */
const DEFAULT_HOURS = 1;
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;

/**
 * The routes of a console's log search: the operator's take zones and a customer besides, typed as
 * the operator's (the customer's page never sets those two), as the statistics' routes are.
 */
function logRoutes(tier: 'user' | 'client') {
  return tier === 'user'
    ? {
        access: userAccessLogs as unknown as typeof clientAccessLogs,
        waf: userWafLogs as unknown as typeof clientWafLogs,
      }
    : { access: clientAccessLogs, waf: clientWafLogs };
}

/**
 * `/{tier}/dataAnalysis/logger`: the access and WAF logs of the caller's sites (the operator's: of
 * its zones and customers) — each request the edge served, newest first, paged on the server,
 * filtered by the scope and time range of the statistics pages and by address, status, method,
 * URL and request id (the WAF log also by rule and action); a row opens to its whole record. The
 * search on screen is exported to a file (LogExportButton, the logExport page).
 */
export function LoggerPage() {
  const { t } = useTranslation(['logs', 'shell']);
  const tier = useStatisticsTier();
  const filter = useStatisticsFilter(DEFAULT_HOURS);
  const search = useListSearch(LOG_SEARCH_KEYS);
  const kind: LogKind = search.filters.kind === 'waf' ? 'waf' : 'access';
  const fields = fieldsOf(search.filters);
  const canExport = useCan(`${tier}.logs.write`);
  return (
    <>
      <PageTitle>{t('shell:menu.logger')}</PageTitle>
      <StatisticsFilters filter={filter} interval={false} />
      <Tabs
        activeKey={kind}
        onChange={(key) => search.setFilters({ kind: key === 'waf' ? 'waf' : undefined })}
        items={[
          { key: 'access', label: t('logs:tabs.access') },
          { key: 'waf', label: t('logs:tabs.waf') },
        ]}
      />
      {/* Keyed by the URL's filters: back and forward show the search of that page. */}
      <SearchRow
        key={LOG_SEARCH_KEYS.map((k) => search.filters[k] ?? '').join('\u0000')}
        kind={kind}
        initial={fields}
        onSearch={(next) => search.setFilters(paramsOf(next))}
      />
      {canExport && (
        <Flex justify="flex-end" style={{ marginBottom: 8 }}>
          <LogExportButton kind={kind} body={{ ...filter.body, ...sent(fields, kind) }} />
        </Flex>
      )}
      <LogTable key={kind} tier={tier} kind={kind} search={search} body={{ ...filter.body, ...sent(fields, kind) }} />
    </>
  );
}

/** The URL's search parameters of the page: the log, then each filter of the search row. */
const LOG_SEARCH_KEYS = ['kind', 'ip', 'status', 'method', 'url', 'urlMatch', 'reqID', 'ruleId', 'action'] as const;
type LogSearchKey = (typeof LOG_SEARCH_KEYS)[number];

/** The search row's fields as the URL holds them (numbers that are not whole are left out). */
function fieldsOf(filters: Partial<Record<LogSearchKey, string>>): SearchFields {
  const whole = (text: string | undefined) => {
    const n = Number(text);
    return text !== undefined && Number.isInteger(n) ? n : undefined;
  };
  return {
    ip: filters.ip,
    status: whole(filters.status),
    method: filters.method,
    url: filters.url,
    urlMatch: filters.urlMatch === 'prefix' ? 'prefix' : 'contains',
    reqID: filters.reqID,
    ruleId: whole(filters.ruleId),
    action: filters.action,
  };
}

/** The search row's fields as URL parameters (the default match left out). */
function paramsOf(fields: SearchFields): Partial<Record<LogSearchKey, string | undefined>> {
  return {
    ip: fields.ip,
    status: fields.status === undefined ? undefined : String(fields.status),
    method: fields.method,
    url: fields.url,
    urlMatch: fields.urlMatch === 'prefix' ? 'prefix' : undefined,
    reqID: fields.reqID,
    ruleId: fields.ruleId === undefined ? undefined : String(fields.ruleId),
    action: fields.action,
  };
}

/** The fields a search sends: those set, the WAF's only on the WAF log. */
function sent(fields: SearchFields, kind: LogKind): Partial<SearchFields> {
  const out: Partial<SearchFields> = {};
  if (fields.ip) out.ip = fields.ip;
  if (fields.status !== undefined) out.status = fields.status;
  if (fields.method) out.method = fields.method;
  if (fields.url) {
    out.url = fields.url;
    out.urlMatch = fields.urlMatch;
  }
  if (fields.reqID) out.reqID = fields.reqID;
  if (kind === 'waf') {
    if (fields.ruleId !== undefined) out.ruleId = fields.ruleId;
    if (fields.action) out.action = fields.action;
  }
  return out;
}

/** The search row: typed values are sent when Search is pressed (or Enter in a field). */
function SearchRow({
  kind,
  initial,
  onSearch,
}: {
  kind: LogKind;
  initial: SearchFields;
  onSearch: (fields: SearchFields) => void;
}) {
  const { t } = useTranslation('logs');
  const [draft, setDraft] = useState<SearchFields>(initial);
  const set = (change: Partial<SearchFields>) => setDraft((previous) => ({ ...previous, ...change }));
  const text = (value: string) => (value.trim() === '' ? undefined : value.trim());
  const submit = () => onSearch(draft);
  return (
    <Flex gap="small" wrap style={{ marginBottom: 16 }}>
      <Input
        allowClear
        style={{ width: 170 }}
        aria-label={t('filters.ip')}
        placeholder={t('filters.ip')}
        value={draft.ip ?? ''}
        onChange={(e) => set({ ip: text(e.target.value) })}
        onPressEnter={submit}
      />
      <InputNumber
        style={{ width: 110 }}
        aria-label={t('filters.status')}
        placeholder={t('filters.status')}
        min={0}
        max={999}
        precision={0}
        value={draft.status ?? null}
        onChange={(value) => set({ status: value === null ? undefined : Number(value) })}
        onPressEnter={submit}
      />
      <Select
        allowClear
        style={{ width: 120 }}
        aria-label={t('filters.method')}
        placeholder={t('filters.method')}
        value={draft.method}
        options={METHODS.map((m) => ({ value: m, label: m }))}
        onChange={(method?: string) => set({ method })}
      />
      <Select<UrlMatch>
        style={{ width: 110 }}
        aria-label={t('filters.urlMatch')}
        value={draft.urlMatch}
        options={LOG_URL_MATCHES.map((m) => ({ value: m, label: t(`filters.urlMatches.${m}`) }))}
        onChange={(urlMatch) => set({ urlMatch })}
      />
      <Input
        allowClear
        style={{ width: 240 }}
        aria-label={t('filters.url')}
        placeholder={t('filters.url')}
        value={draft.url ?? ''}
        onChange={(e) => set({ url: e.target.value === '' ? undefined : e.target.value })}
        onPressEnter={submit}
      />
      <Input
        allowClear
        style={{ width: 200 }}
        aria-label={t('filters.reqID')}
        placeholder={t('filters.reqID')}
        value={draft.reqID ?? ''}
        onChange={(e) => set({ reqID: text(e.target.value) })}
        onPressEnter={submit}
      />
      {kind === 'waf' && (
        <>
          <InputNumber
            style={{ width: 130 }}
            aria-label={t('filters.ruleId')}
            placeholder={t('filters.ruleId')}
            min={1}
            precision={0}
            value={draft.ruleId ?? null}
            onChange={(value) => set({ ruleId: value === null ? undefined : Number(value) })}
            onPressEnter={submit}
          />
          <Select
            allowClear
            style={{ width: 140 }}
            aria-label={t('filters.action')}
            placeholder={t('filters.action')}
            value={draft.action}
            options={[
              { value: 'deny', label: t('actions.deny') },
              { value: 'detect', label: t('actions.detect') },
            ]}
            onChange={(action?: string) => set({ action })}
          />
        </>
      )}
      <Button type="primary" onClick={submit}>
        {t('search')}
      </Button>
    </Flex>
  );
}

/** The decision of a record for people: nothing, or the kind, its rule and what it did. */
function useDecisionText() {
  const { t } = useTranslation('logs');
  const [locale] = useLocale();
  return (r: LogRecord) => {
    if (!r.fwKind) return '—';
    const kind = t(`kinds.${r.fwKind}`, { defaultValue: r.fwKind });
    const group = r.fwKind === 'waf' ? wafRuleGroup(r.fwRule) : null;
    const rule = r.fwRule > 0 ? ` #${r.fwRule}${group ? ` (${WAF_GROUP_TEXT[group].name[locale]})` : ''}` : '';
    const action = r.fwAction ? ` · ${t(`actions.${r.fwAction}`, { defaultValue: r.fwAction })}` : '';
    return `${kind}${rule}${action}`;
  };
}

function LogTable({
  tier,
  kind,
  search,
  body,
}: {
  tier: 'user' | 'client';
  kind: LogKind;
  search: ListSearch<LogSearchKey>;
  body: Record<string, unknown> & { startTime: string; endTime: string };
}) {
  const { t } = useTranslation('logs');
  const [locale] = useLocale();
  // The page and its size from the URL, the size no larger than a search answers.
  const paging = { ...search, pageSize: Math.min(search.pageSize, LOG_PAGE_SIZE_MAX) };
  const routes = logRoutes(tier);
  const [open, setOpen] = useState<LogRecord | null>(null);
  const decision = useDecisionText();
  const waf = useWafColumns(180);
  const request = useMemo(
    () => ({ ...body, page: paging.page, pageSize: paging.pageSize }),
    [body, paging.page, paging.pageSize],
  );
  const list = useQuery({
    ...routeQuery(tier, routes[kind], { body: request as never }),
    placeholderData: keepPreviousData,
  });
  // What a 1280-pixel screen shows at once; the rest waits in the column chooser. The URL opens the
  // record. The WAF log shows the excerpt instead of the domain and the status (403 or passed).
  const isWaf = kind === 'waf';
  const columns: ListColumns<LogRecord> = [
    { title: t('columns.time'), dataIndex: 'time', render: (time: string) => <DateTime value={time} /> },
    { title: t('columns.host'), dataIndex: 'host', ellipsis: true, maxWidth: 140, defaultHidden: isWaf },
    { title: t('columns.ip'), dataIndex: 'ip', maxWidth: 130 },
    { title: t('columns.method'), dataIndex: 'method', maxWidth: 80, defaultHidden: true },
    {
      title: t('columns.url'),
      dataIndex: 'url',
      ellipsis: true,
      maxWidth: 220,
      render: (url: string, r: LogRecord) => <Typography.Link onClick={() => setOpen(r)}>{url}</Typography.Link>,
    },
    { title: t('columns.status'), dataIndex: 'status', align: 'right', maxWidth: 70, defaultHidden: isWaf },
    ...(isWaf
      ? [{ ...waf.part, defaultHidden: true }, waf.excerpt]
      : [
          {
            title: t('columns.bytesOut'),
            dataIndex: 'bytesOut',
            align: 'right' as const,
            maxWidth: 90,
            defaultHidden: true,
            render: (n: number) => formatValue(n, 'bytes', locale),
          },
          { title: t('columns.cacheStatus'), dataIndex: 'cacheStatus', maxWidth: 90, defaultHidden: true },
        ]),
    {
      title: t('columns.decision'),
      key: 'decision',
      ellipsis: true,
      maxWidth: 170,
      render: (_: unknown, r: LogRecord) => decision(r),
    },
  ];
  return (
    <Card size="small" data-testid={`log-${kind}`}>
      <ListTable<LogRecord>
        rowKey={(r) => `${r.nodeID}:${r.reqID}`}
        size="small"
        columns={columns}
        list={list}
        paging={paging}
        emptyText={t('empty')}
      />
      <RecordDrawer record={open} onClose={() => setOpen(null)} decision={decision} />
    </Card>
  );
}

/** A record opened: every field of the stored event. */
function RecordDrawer({
  record,
  onClose,
  decision,
}: {
  record: LogRecord | null;
  onClose: () => void;
  decision: (r: LogRecord) => string;
}) {
  const { t } = useTranslation('logs');
  const [locale] = useLocale();
  const ms = (n: number) => (n < 0 ? '—' : `${n} ms`);
  return (
    <Drawer open={record !== null} onClose={onClose} title={t('record')} width={560} destroyOnHidden>
      {record && (
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('columns.time')}>
            <DateTime value={record.time} />
          </Descriptions.Item>
          <Descriptions.Item label={t('columns.reqID')}>
            <Typography.Text copyable>{record.reqID}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('columns.host')}>{record.host}</Descriptions.Item>
          <Descriptions.Item label={t('columns.url')}>
            <Typography.Text code style={{ wordBreak: 'break-all' }}>
              {record.url}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('columns.method')}>
            {record.method || '—'} · {record.scheme} · HTTP/{record.httpVersion || '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('columns.status')}>{record.status}</Descriptions.Item>
          <Descriptions.Item label={t('columns.ip')}>
            {record.ip}
            {record.country ? ` (${record.country})` : ''}
          </Descriptions.Item>
          <Descriptions.Item label={t('columns.bytes')}>
            {formatValue(record.bytesIn, 'bytes', locale)} / {formatValue(record.bytesOut, 'bytes', locale)}
          </Descriptions.Item>
          <Descriptions.Item label={t('columns.times')}>
            {ms(record.requestMs)} / {ms(record.upstreamMs)}
          </Descriptions.Item>
          <Descriptions.Item label={t('columns.upstreamStatus')}>{record.upstreamStatus || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('columns.cacheStatus')}>{record.cacheStatus || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('columns.userAgent')}>{record.userAgent || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('columns.referer')}>{record.referer || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('columns.decision')}>{decision(record)}</Descriptions.Item>
          {record.wafPart && (
            <Descriptions.Item label={t('columns.part')}>
              {t(`parts.${record.wafPart}`, { defaultValue: record.wafPart })}
            </Descriptions.Item>
          )}
          {record.wafExcerpt && (
            <Descriptions.Item label={t('columns.excerpt')}>
              <Typography.Text code style={{ wordBreak: 'break-all' }}>
                {record.wafExcerpt}
              </Typography.Text>
            </Descriptions.Item>
          )}
          <Descriptions.Item label={t('columns.node')}>{record.nodeID}</Descriptions.Item>
        </Descriptions>
      )}
    </Drawer>
  );
}
