import { LOG_PAGE_SIZE_MAX, type LogRecord, WAF_GROUP_TEXT, wafRuleGroup } from '@rampart/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Drawer, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../app/route-query';
import { DateTime } from '../../components/DateTime';
import type { ListColumns } from '../../components/FitTable';
import { ListTable } from '../../components/ListTable';
import type { ListSearch } from '../../features/lists/use-list-search';
import { formatValue } from '../../features/statistics/stat-format';
import { useWafColumns } from '../../features/waf/waf-columns';
import { useLocale } from '../../i18n';
import { LogSampledNotice } from './LogSampledNotice';
import { type LogKind, type LogSearchKey, logRoutes } from './logger-search';

/** Origin answers the edge passes on as its own error page (the origin's status is the request's). */
const ORIGIN_FAILURES: readonly number[] = [502, 503, 504];

/**
 * The decision of a record for people: the kind, its rule and what it did; without one, an origin
 * that failed (502, 503, 504 from the upstream), else nothing.
 */
function useDecisionText() {
  const { t } = useTranslation('logs');
  const [locale] = useLocale();
  return (r: LogRecord) => {
    if (!r.fwKind) {
      const origin = ORIGIN_FAILURES.includes(r.upstreamStatus) && r.status === r.upstreamStatus;
      return origin ? t(`origin.${r.upstreamStatus as 502 | 503 | 504}`) : '—';
    }
    const kind = t(`kinds.${r.fwKind}`, { defaultValue: r.fwKind });
    const group = r.fwKind === 'waf' ? wafRuleGroup(r.fwRule) : null;
    const rule = r.fwRule > 0 ? ` #${r.fwRule}${group ? ` (${WAF_GROUP_TEXT[group].name[locale]})` : ''}` : '';
    const action = r.fwAction ? ` · ${t(`actions.${r.fwAction}`, { defaultValue: r.fwAction })}` : '';
    return `${kind}${rule}${action}`;
  };
}

/** A collapsed flood's line: "12,400 requests from 203.0.113.7 refused by Blacklist #4 in this minute". */
function useCollapsedText(decision: (r: LogRecord) => string) {
  const { t } = useTranslation('logs');
  const [locale] = useLocale();
  return (r: LogRecord) => {
    const values = {
      count: (r.collapsed?.count ?? 0).toLocaleString(locale.replace('_', '-')),
      ip: r.ip,
      decision: decision(r),
    };
    return r.ip ? t('collapsed.summary', values) : t('collapsed.summaryMany', values);
  };
}

export function LogTable({
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
  const collapsedText = useCollapsedText(decision);
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
      // A collapsed flood says what it stands for; its record opens on the first request.
      render: (url: string, r: LogRecord) => (
        <Typography.Link onClick={() => setOpen(r)}>{r.collapsed ? collapsedText(r) : url}</Typography.Link>
      ),
    },
    { title: t('columns.reqID'), dataIndex: 'reqID', ellipsis: true, maxWidth: 200, defaultHidden: true },
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
      <LogSampledNotice tier={tier} spans={list.data?.sampled ?? []} />
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

/** A record opened: every field of the stored event (of a collapsed flood: its count, times and first request). */
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
          {record.collapsed ? (
            <>
              <Descriptions.Item label={t('collapsed.count')}>
                {record.collapsed.count.toLocaleString(locale.replace('_', '-'))}
              </Descriptions.Item>
              <Descriptions.Item label={t('collapsed.between')}>
                <DateTime value={record.collapsed.first} /> – <DateTime value={record.collapsed.last} />
              </Descriptions.Item>
              <Descriptions.Item label={t('collapsed.sample')}>{t('collapsed.sampleText')}</Descriptions.Item>
            </>
          ) : (
            <Descriptions.Item label={t('columns.time')}>
              <DateTime value={record.time} />
            </Descriptions.Item>
          )}
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
