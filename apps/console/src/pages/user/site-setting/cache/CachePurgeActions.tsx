import { ClearOutlined } from '@ant-design/icons';
import { siteCacheRoutes } from '@rampart/contract';
import { Button, Flex, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';

/**
 * The site's purge actions above its rules. Today one: clear the whole cache (`DELETE
 * .../setting/currentCache`, a new cache generation on every node), after a confirm.
 *
 * Purging chosen URLs (the lead's call, in progress) belongs here too: its button goes beside
 * "Clear cache" in this Flex, with its own dialog component in this folder.
 */
export function CachePurgeActions({ siteId }: { siteId: number }) {
  const { t } = useTranslation(['cache', 'common']);
  const clear = useRouteMutation('user', siteCacheRoutes.clearSiteCache, {
    input: () => ({ params: { siteId } }),
    invalidates: [siteCacheRoutes.listCacheRules],
    success: () => toastText('clearCacheSuccess'),
  });

  return (
    <Flex gap="small" wrap justify="flex-end" style={{ marginBottom: 16 }}>
      <Popconfirm
        title={t('clearConfirm')}
        okText={t('clear')}
        cancelText={t('common:cancel')}
        okButtonProps={{ danger: true, loading: clear.isPending }}
        onConfirm={() => clear.mutate(undefined)}
      >
        <Button danger icon={<ClearOutlined />} loading={clear.isPending}>
          {t('clear')}
        </Button>
      </Popconfirm>
    </Flex>
  );
}
