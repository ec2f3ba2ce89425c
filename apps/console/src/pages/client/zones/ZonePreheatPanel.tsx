import { cacheTaskRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Divider, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toast } from '../../../app/toast';
import { CacheTasksTable, UrlsForm, whileRunning } from '../../../features/cache/CacheTasks';
import { useLocalPaging } from '../../../features/lists/use-list-search';

/**
 * Cache preheat for a zone: URLs every enabled node of the zone fetches through its own nginx, and
 * the tasks with each node's result per URL (refreshed while one runs).
 */
export function ZonePreheatPanel({ zoneId }: { zoneId: number }) {
  const { t } = useTranslation('cacheTasks');
  const params = { zoneID: zoneId };
  const paging = useLocalPaging();
  const tasks = useQuery({
    ...routeQuery('client', cacheTaskRoutes.listZonePreheatTasks, {
      params,
      query: { page: paging.page, pageSize: paging.pageSize },
    }),
    refetchInterval: whileRunning,
  });
  const preheat = useRouteMutation('client', cacheTaskRoutes.preheatZoneCaches, {
    input: (urls: string[]) => ({ params, body: { urls } }),
    invalidates: changes('preheatTasks'),
    onSuccess: (reply) => toast.success(t('preheatSent', { count: reply.data.nodes.length })),
  });
  return (
    <>
      <UrlsForm
        submit={t('preheat')}
        hint={t('preheatHint')}
        pending={preheat.isPending}
        onSubmit={(urls) => preheat.mutateAsync(urls)}
      />
      <Divider />
      <Typography.Title level={5}>{t('tasks')}</Typography.Title>
      <CacheTasksTable list={tasks} paging={paging} />
    </>
  );
}
