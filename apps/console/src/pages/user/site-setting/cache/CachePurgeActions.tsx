import { ClearOutlined } from '@ant-design/icons';
import { siteCacheRoutes } from '@rampart/contract';
import { Button, Flex, Popconfirm } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { PurgeUrlsModal } from './PurgeUrls';

/**
 * The site's purge actions above its rules: purge chosen URLs (a dialog; the task's results show
 * under the rules) and clear the whole cache (`DELETE .../setting/currentCache`, a new cache
 * generation on every node) after a confirm.
 */
export function CachePurgeActions({ siteId }: { siteId: number }) {
  const { t } = useTranslation(['cache', 'common', 'cacheTasks']);
  const clear = useRouteMutation('user', siteCacheRoutes.clearSiteCache, {
    input: () => ({ params: { siteId } }),
    invalidates: changes('siteCacheRules'),
    success: () => toastText('clearCacheSuccess'),
  });

  const [purging, setPurging] = useState(false);

  return (
    <Flex gap="small" wrap justify="flex-end" style={{ marginBottom: 16 }}>
      <Button onClick={() => setPurging(true)}>{t('cacheTasks:purge')}</Button>
      <PurgeUrlsModal siteId={siteId} open={purging} onClose={() => setPurging(false)} />
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
