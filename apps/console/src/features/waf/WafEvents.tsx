import { type LogRecord, userWafLogs, WAF_GROUP_TEXT, wafRuleGroup } from '@rampart/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Segmented, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../app/route-query';
import { DateTime } from '../../components/DateTime';
import type { ListColumns } from '../../components/FitTable';
import { ListTable } from '../../components/ListTable';
import { useLocale } from '../../i18n';
import { useLocalPaging } from '../lists/use-list-search';
import { useWafColumns } from './waf-columns';

/** The windows the list looks back over, in hours. */
const WINDOWS = [1, 24, 168] as const;
type WindowHours = (typeof WINDOWS)[number];

/** The request's path without its query: the prefix an exclusion made from the event applies to. */
export function pathOfUrl(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.startsWith('/') ? path : '/';
}

interface WafEventsProps {
  siteId: number;
  /** Only these domains' events (a module's bound domains); all of the site's when absent. */
  domainIds?: number[];
  /** Offers "add an exclusion" on each row when given (the caller may write the site's modules). */
  onExclude?: (record: LogRecord) => void;
}

/**
 * The site's recent WAF events (`user/logs/waf`, from the analytics store): when, the domain, the
 * rule and its group, the part of the request and a short excerpt of what matched, blocked or only
 * detected; paged on the server. Each row can become an exclusion (issue 20: a false positive is
 * fixed in one click from the event that shows it).
 */
export function WafEvents({ siteId, domainIds, onExclude }: WafEventsProps) {
  const { t } = useTranslation('wafEvents');
  const [locale] = useLocale();
  const paging = useLocalPaging();
  const waf = useWafColumns(260);
  const [hours, setHours] = useState<WindowHours>(24);
  // The window ends now, rounded to the minute so that paging keeps one range.
  const [now] = useState(() => Math.ceil(Date.now() / 60_000) * 60_000);
  const body = useMemo(
    () => ({
      siteIDs: [siteId],
      ...(domainIds && domainIds.length > 0 ? { domainIDs: domainIds } : {}),
      startTime: new Date(now - hours * 3600_000).toISOString(),
      endTime: new Date(now).toISOString(),
      page: paging.page,
      pageSize: paging.pageSize,
    }),
    [siteId, domainIds, now, hours, paging.page, paging.pageSize],
  );
  // A module bound to no domain has no events of its own: nothing is asked.
  const unbound = domainIds !== undefined && domainIds.length === 0;
  const list = useQuery({
    ...routeQuery('user', userWafLogs, { body }),
    placeholderData: keepPreviousData,
    enabled: !unbound,
  });

  const ruleText = (ruleId: number) => {
    const group = wafRuleGroup(ruleId);
    return group ? `${ruleId} · ${WAF_GROUP_TEXT[group].name[locale]}` : String(ruleId);
  };
  const columns: ListColumns<LogRecord> = [
    { title: t('time'), dataIndex: 'time', render: (time: string) => <DateTime value={time} /> },
    { title: t('domain'), dataIndex: 'host', ellipsis: true, maxWidth: 160 },
    { title: t('rule'), dataIndex: 'fwRule', ellipsis: true, maxWidth: 180, render: ruleText },
    waf.part,
    waf.excerpt,
    {
      title: t('action'),
      dataIndex: 'fwAction',
      maxWidth: 90,
      render: (action: string) => (action === 'detect' ? t('detected') : t('blocked')),
    },
    { title: t('ip'), dataIndex: 'ip', maxWidth: 140, defaultHidden: true },
    { title: t('url'), dataIndex: 'url', ellipsis: true, maxWidth: 240, defaultHidden: true },
    ...(onExclude
      ? [
          {
            title: t('actions'),
            key: 'actions',
            maxWidth: 130,
            render: (_: unknown, record: LogRecord) => (
              <Button size="small" onClick={() => onExclude(record)}>
                {t('addExclusion')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card
      size="small"
      title={t('title')}
      data-testid="waf-events"
      extra={
        <Segmented<WindowHours>
          aria-label={t('window')}
          value={hours}
          options={WINDOWS.map((h) => ({ value: h, label: t(`windows.h${h}`) }))}
          onChange={setHours}
        />
      }
    >
      {unbound ? (
        <Typography.Text type="secondary">{t('unbound')}</Typography.Text>
      ) : (
        <ListTable<LogRecord>
          rowKey={(r) => `${r.nodeID}:${r.reqID}`}
          size="small"
          columns={columns}
          list={list}
          paging={paging}
          emptyText={t('empty')}
        />
      )}
    </Card>
  );
}
