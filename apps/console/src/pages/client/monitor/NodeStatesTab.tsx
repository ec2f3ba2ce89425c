import { monitoringRoutes, NODE_MONITOR_STATES } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Flex, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { routeQuery } from '../../../app/route-query';
import { DateTime } from '../../../components/DateTime';
import type { ListColumns } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { SearchBox } from '../../../components/SearchBox';
import { urlQuery, useListSearch } from '../../../features/lists/use-list-search';
import { MonitorStateTag } from '../../../features/monitoring/MonitorStateTag';
import { MONITOR_REFRESH } from './monitor-refresh';

type NodeState = z.infer<typeof monitoringRoutes.listNodesEnableStatus.response>['data'][number];

/** Every initialised node with its state across the monitor groups, filtered by state and search in the URL. */
export function NodeStatesTab() {
  const { t } = useTranslation('monitoring');
  const search = useListSearch(['state', 'value'] as const);
  const filters = urlQuery(monitoringRoutes.listNodesEnableStatus.request.query, search, ['state', 'value']);
  const nodes = useQuery({
    ...routeQuery('client', monitoringRoutes.listNodesEnableStatus, {
      query: { page: search.page, pageSize: search.pageSize, ...filters },
    }),
    ...MONITOR_REFRESH,
  });

  const columns: ListColumns<NodeState> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('ips'), dataIndex: 'ips', render: (ips: string[]) => ips.join(', ') },
    { title: t('zone'), dataIndex: 'zoneName', ellipsis: true, maxWidth: 160 },
    { title: t('state'), dataIndex: 'state', render: (value: NodeState['state']) => <MonitorStateTag state={value} /> },
    { title: t('sinceColumn'), dataIndex: 'since', render: (value: string | null) => <DateTime value={value} /> },
    {
      title: t('groups'),
      dataIndex: 'groups',
      ellipsis: true,
      render: (groups: NodeState['groups']) =>
        groups.length === 0
          ? '—'
          : groups.map((group) => (
              <Tag key={group.id} color={group.state === 'down' ? 'red' : group.state === 'up' ? 'green' : 'default'}>
                {`${group.name}: ${t(`states.${group.state}`)}`}
              </Tag>
            )),
    },
  ];

  return (
    <>
      <Flex gap="small" wrap style={{ marginBottom: 16 }}>
        <Select
          allowClear
          style={{ width: 180 }}
          placeholder={t('filterState')}
          aria-label={t('filterState')}
          value={filters.state}
          options={NODE_MONITOR_STATES.map((value) => ({ value, label: t(`states.${value}`) }))}
          onChange={(value?: string) => search.setFilters({ state: value })}
        />
        <SearchBox
          label={t('searchNodes')}
          value={search.filters.value}
          width={280}
          onSearch={(text) => search.setFilters({ value: text })}
        />
      </Flex>
      <ListTable<NodeState>
        rowKey="id"
        columns={columns}
        list={nodes}
        paging={search}
        emptyText={t('emptyTargets')}
        quietRefresh
      />
    </>
  );
}
