import { MONITOR_STATES, type MonitorGroup, type MonitorTarget, monitoringRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Flex, Select, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import { DateTime } from '../../../components/DateTime';
import { ListToolbar } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { RowDrawer } from '../../../components/RowDrawer';
import { useLocalPaging } from '../../../features/lists/use-list-search';
import { MonitorStateTag } from '../../../features/monitoring/MonitorStateTag';
import { MONITOR_REFRESH } from './monitor-refresh';

/** The nodes a monitor group probes, with their state, since when and latest changes; closed when `group` is null. */
export function GroupTargetsDrawer({ group, onClose }: { group: MonitorGroup | null; onClose: () => void }) {
  const { t } = useTranslation('monitoring');
  return (
    <RowDrawer row={group} title={(group) => t('targetsOf', { name: group.name })} size={900} onClose={onClose}>
      {(group) => <GroupTargets group={group} />}
    </RowDrawer>
  );
}

function GroupTargets({ group }: { group: MonitorGroup }) {
  const { t } = useTranslation('monitoring');
  const paging = useLocalPaging();
  const [state, setState] = useState<MonitorTarget['state'] | undefined>(undefined);
  const targets = useQuery({
    ...routeQuery('client', monitoringRoutes.listMonitorGroupNodes, {
      params: { id: group.id },
      query: { page: paging.page, pageSize: paging.pageSize, ...(state ? { state } : {}) },
    }),
    ...MONITOR_REFRESH,
  });

  const columns: TableColumnsType<MonitorTarget> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('ips'), dataIndex: 'ips', render: (ips: string[]) => ips.join(', ') },
    { title: t('zone'), dataIndex: 'zoneName' },
    {
      title: t('state'),
      dataIndex: 'state',
      render: (value: MonitorTarget['state'], target) => <MonitorStateTag state={value} since={target.since} />,
    },
    {
      title: t('sinceColumn'),
      dataIndex: 'since',
      render: (v: string | null) => <DateTime value={v} />,
    },
    { title: t('checkedAt'), dataIndex: 'checkedAt', render: (v: string | null) => <DateTime value={v} /> },
    { title: t('reason'), dataIndex: 'reason', render: (v: string) => v || '—' },
    {
      title: t('history'),
      dataIndex: 'history',
      render: (history: MonitorTarget['history']) =>
        history.length === 0 ? (
          '—'
        ) : (
          <Flex vertical gap={2}>
            {history.map((change) => (
              <span key={`${change.at}-${change.state}`}>
                <MonitorStateTag state={change.state} /> <DateTime value={change.at} />
              </span>
            ))}
          </Flex>
        ),
    },
  ];

  return (
    <>
      <ListToolbar justify="flex-start" style={{ marginBottom: 16 }}>
        <Select
          allowClear
          style={{ width: 180 }}
          placeholder={t('filterState')}
          aria-label={t('filterState')}
          value={state}
          options={MONITOR_STATES.map((value) => ({ value, label: t(`states.${value}`) }))}
          onChange={setState}
        />
      </ListToolbar>
      <ListTable<MonitorTarget>
        rowKey="nodeId"
        columns={columns}
        list={targets}
        paging={paging}
        emptyText={t('emptyTargets')}
        quietRefresh
      />
    </>
  );
}
