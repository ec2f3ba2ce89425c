import { PlusOutlined } from '@ant-design/icons';
import { type SitePort, STREAM_PROTOCOLS, sitePortRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Select, Space, Switch, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import type { ListColumns } from '../../../../components/FitTable';
import { ListTable } from '../../../../components/ListTable';
import { actionsColumn, RowActions } from '../../../../components/RowActions';
import { SearchBox } from '../../../../components/SearchBox';
import { pendingFor } from '../../../../features/lists/row-pending';
import { urlQuery, useListSearch } from '../../../../features/lists/use-list-search';
import { PortBatchModal } from './PortBatchModal';
import { PortFormModal } from './PortFormModal';
import { PortUpstreamsModal } from './PortUpstreamsModal';

const address = (u: { ip: string; port: number }) => (u.ip.includes(':') ? `[${u.ip}]:${u.port}` : `${u.ip}:${u.port}`);

/**
 * A site's layer-4 ports, paged and filtered on the server (port number, protocol; in the URL):
 * add, batch create, edit, turn on/off, upstreams, delete. The zone listen ports the site cannot
 * use are shown above the list.
 */
export function PortsTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation(['ports', 'common']);
  const search = useListSearch(['port', 'protocol'] as const);
  const filters = urlQuery(sitePortRoutes.listSitePorts.request.query, search, ['port', 'protocol']);
  const params = { siteId };
  const query = { page: search.page, pageSize: search.pageSize, ...filters };
  const ports = useQuery(routeQuery('user', sitePortRoutes.listSitePorts, { params, query }));
  const zonePorts = useQuery(routeQuery('user', sitePortRoutes.listSiteZonePorts, { params }));
  const [editing, setEditing] = useState<SitePort | 'new' | null>(null);
  const [batch, setBatch] = useState(false);
  const [upstreamsOf, setUpstreamsOf] = useState<SitePort | null>(null);
  const remove = useRouteMutation('user', sitePortRoutes.deleteSitePorts, {
    input: (id: number) => ({ params, body: { ids: [id] } }),
    invalidates: changes('sitePorts'),
    success: () => toastText('deleteSuccess'),
  });
  const enable = useRouteMutation('user', sitePortRoutes.enableSitePorts, {
    input: (id: number) => ({ params, body: { ids: [id] } }),
    invalidates: changes('sitePorts'),
    success: () => toastText('setSuccess'),
  });
  const disable = useRouteMutation('user', sitePortRoutes.disableSitePorts, {
    input: (id: number) => ({ params, body: { ids: [id] } }),
    invalidates: changes('sitePorts'),
    success: () => toastText('setSuccess'),
  });
  const taken = zonePorts.data?.data ?? [];

  const columns: ListColumns<SitePort> = [
    { title: t('port'), dataIndex: 'port' },
    { title: t('protocol'), dataIndex: 'protocol', render: (p: SitePort['protocol']) => t(`protocols.${p}`) },
    { title: t('hashType'), dataIndex: 'hashType', render: (h: 0 | 1) => t(`hashTypes.${h}`) },
    {
      title: t('upstreams'),
      dataIndex: 'upstreams',
      render: (list: SitePort['upstreams']) => (
        <Space size={[0, 4]} wrap>
          {list.map((u) => (
            <Tag key={u.id} color={u.backup ? 'default' : 'blue'}>
              {address(u)}
              {u.backup ? ` (${t('backup')})` : ''}
            </Tag>
          ))}
        </Space>
      ),
    },
    // Capped as the firewall lists' memo, so that a long one does not widen the list past 1280 px.
    { title: t('memo'), dataIndex: 'memo', ellipsis: true, maxWidth: 120 },
    {
      title: t('status'),
      dataIndex: 'status',
      render: (status: 0 | 1, row) => (
        <Space size={4} wrap>
          <Switch
            size="small"
            checked={status === 1}
            aria-label={t('toggle', { port: row.port })}
            loading={pendingFor(enable, row.id) || pendingFor(disable, row.id)}
            onChange={(on) => (on ? enable.mutate(row.id) : disable.mutate(row.id))}
          />
          {row.failedNodes.length > 0 && (
            <Tooltip title={row.failedNodes.map((n) => `${n.nodeName}: ${n.error}`).join('; ')}>
              <Tag color="error" data-testid={`port-failed-${row.port}`}>
                {t('failedOn', { nodes: row.failedNodes.map((n) => n.nodeName).join(', ') })}
              </Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    actionsColumn((row) => (
      <RowActions
        before={
          <Button size="small" onClick={() => setUpstreamsOf(row)}>
            {t('upstreams')}
          </Button>
        }
        onEdit={() => setEditing(row)}
        deleteConfirm={t('deleteConfirm', { port: row.port })}
        deleting={pendingFor(remove, row.id)}
        onDelete={() => remove.mutate(row.id)}
      />
    )),
  ];

  return (
    <>
      {taken.length > 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="zone-ports"
          message={t('zonePorts', {
            ports: taken.map((z) => `${z.port} (${z.portType}, ${z.zoneName})`).join(', '),
          })}
        />
      )}
      <Flex justify="space-between" gap="small" wrap style={{ marginBottom: 16 }}>
        <Space wrap>
          <SearchBox
            label={t('search')}
            value={search.filters.port}
            onSearch={(text) => search.setFilters({ port: text })}
          />
          <Select
            aria-label={t('protocol')}
            allowClear
            placeholder={t('allProtocols')}
            style={{ width: 160 }}
            value={filters.protocol}
            onChange={(value?: string) => search.setFilters({ protocol: value })}
            options={STREAM_PROTOCOLS.map((p) => ({ value: p, label: t(`protocols.${p}`) }))}
          />
        </Space>
        <Space>
          <Button onClick={() => setBatch(true)}>{t('batch.open')}</Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('add')}
          </Button>
        </Space>
      </Flex>
      <ListTable<SitePort> rowKey="id" columns={columns} list={ports} paging={search} emptyText={t('empty')} />
      <PortFormModal siteId={siteId} port={editing} onClose={() => setEditing(null)} />
      <PortBatchModal siteId={siteId} open={batch} onClose={() => setBatch(false)} />
      <PortUpstreamsModal siteId={siteId} port={upstreamsOf} onClose={() => setUpstreamsOf(null)} />
    </>
  );
}
