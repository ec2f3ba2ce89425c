import { nodeRoutes, zoneSettingRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, List, Space, Spin, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { NODE_LIST_QUERY } from '../nodes/node-refresh';
import { NginxSections } from './NginxSections';

/**
 * The zone's nginx settings: whether they apply, the worker, http and stream values and the custom
 * directives, and the zone's nodes that refused the last change (each keeps its running
 * configuration and reports nginx's error; the list reloads like the node list).
 */
export function ZoneNginxPanel({ zoneId }: { zoneId: number }) {
  const { t } = useTranslation(['zoneSettings']);
  const params = { zoneID: zoneId };
  const nginx = useQuery(routeQuery('client', zoneSettingRoutes.getZoneNginx, { params }));
  const nodes = useQuery({
    ...routeQuery('client', nodeRoutes.listInitializedNodes, {
      query: { page: 1, pageSize: 100, zoneIDs: [zoneId] },
    }),
    ...NODE_LIST_QUERY,
  });
  const invalidates = changes('zoneNginx');
  const enable = useRouteMutation('client', zoneSettingRoutes.setZoneNginxEnable, {
    input: (on: boolean) => ({ params, body: { enable: on } }),
    invalidates,
    success: () => toastText('setSuccess'),
  });

  if (!nginx.data) return <Spin />;
  const current = nginx.data.data;
  const refusing = (nodes.data?.data ?? []).filter((node) => node.lastError !== '');
  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        <Switch
          aria-label={t('nginx.enable')}
          checked={current.enable}
          loading={enable.isPending}
          onChange={(on) => enable.mutate(on)}
        />
        <Typography.Text>{current.enable ? t('nginx.enabled') : t('nginx.disabled')}</Typography.Text>
      </Space>
      <Alert type="info" showIcon title={t('nginx.howApplied')} style={{ marginBottom: 16 }} />
      {refusing.length > 0 && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('nginx.refusedBy', { count: refusing.length })}
          description={
            <List
              size="small"
              dataSource={refusing}
              renderItem={(node) => (
                <List.Item>
                  <Typography.Text strong>{node.name}</Typography.Text>: {node.lastError}
                </List.Item>
              )}
            />
          }
        />
      )}
      <NginxSections scope={{ kind: 'zone', zoneId }} value={current} />
    </>
  );
}
