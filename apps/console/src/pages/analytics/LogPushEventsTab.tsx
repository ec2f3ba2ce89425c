import { LOG_PUSH_EVENTS_MAX, type LogPushEvent, type LogPushState } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/account-context';
import { changes } from '../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../app/route-query';
import { toast, toastText } from '../../app/toast';
import { DateTime } from '../../components/DateTime';
import type { ListColumns } from '../../components/FitTable';
import { ListTable } from '../../components/ListTable';
import { actionsColumn, RowActions } from '../../components/RowActions';
import type { ListSearch } from '../../features/lists/use-list-search';
import { useSiteOptions, useZoneOptions } from '../../features/statistics/use-scope-options';
import { LogPushEventModal } from './LogPushEventModal';
import { destinationSummary, type PushTier, pushRoutes, updateBodyOf } from './log-push-routes';
import type { PageKey } from './log-push-search';
import { ManualPushModal } from './ManualPushModal';

const STATE_COLORS: Readonly<Record<LogPushState, string>> = { active: 'success', retrying: 'warning', dead: 'error' };

/** The names of the caller's sites (customer) or zones (operator), for the scope column. */
function useScopeNames(tier: PushTier): Map<number, string> {
  const sites = useSiteOptions('user', undefined);
  const zones = useZoneOptions(tier);
  const options = tier === 'user' ? sites.options : zones.options;
  return new Map(options.map((option) => [option.value, option.label]));
}

export function EventsTab({ tier, search }: { tier: PushTier; search: ListSearch<PageKey> }) {
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
