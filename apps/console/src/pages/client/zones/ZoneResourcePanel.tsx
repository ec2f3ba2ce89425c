import { zoneSettingRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';

/**
 * What the zone carries (`GET client/zone/{zoneID}/setting/resource`): nodes with how many are
 * online and switched on, sub-nodes, groups, virtual nodes, sites, domains and ports. The counts are
 * taken when the tab opens (staleTime 0), with a button to count again.
 */
export function ZoneResourcePanel({ zoneId }: { zoneId: number }) {
  const { t } = useTranslation(['zoneSettings', 'common']);
  const resource = useQuery({
    ...routeQuery('client', zoneSettingRoutes.getZoneResource, { params: { zoneID: zoneId } }),
    staleTime: 0,
  });

  if (resource.isError) {
    return (
      <Alert
        type="error"
        title={t('resource.failed')}
        action={<Button onClick={() => resource.refetch()}>{t('common:actions.retry')}</Button>}
      />
    );
  }
  if (!resource.data) return <Spin />;
  const r = resource.data.data;
  const rows = [
    {
      key: 'nodes',
      children: t('resource.nodesValue', { total: r.nodes, online: r.onlineNodes, enabled: r.enabledNodes }),
    },
    { key: 'subNodes', children: r.subNodes },
    { key: 'groups', children: r.groups },
    { key: 'virtualNodes', children: r.virtualNodes },
    { key: 'sites', children: r.sites },
    { key: 'domains', children: r.domains },
    { key: 'sitePorts', children: r.sitePorts },
    { key: 'listenPorts', children: r.listenPorts },
  ] as const;
  return (
    <>
      <Descriptions
        column={1}
        bordered
        items={rows.map((row) => ({ key: row.key, label: t(`resource.${row.key}`), children: row.children }))}
      />
      <Alert style={{ marginTop: 16 }} type="info" showIcon title={t('resource.hint')} />
      <Button style={{ marginTop: 16 }} loading={resource.isFetching} onClick={() => resource.refetch()}>
        {t('resource.refresh')}
      </Button>
    </>
  );
}
