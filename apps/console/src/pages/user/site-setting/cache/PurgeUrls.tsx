import { cacheTaskRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toast } from '../../../../app/toast';
import { FormModal } from '../../../../components/FormModal';
import { CacheTasksTable, UrlsField, urlsOf, whileRunning } from '../../../../features/cache/CacheTasks';
import { useLocalPaging } from '../../../../features/lists/use-list-search';

/**
 * Purging URLs of the site (`POST .../setting/purgeCache`): a dialog for the URLs (each must be on
 * one of the site's domains; the server names the one that is not), closed when `open` is false.
 */
export function PurgeUrlsModal({ siteId, open, onClose }: { siteId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('cacheTasks');
  const [form] = Form.useForm<{ urls: string }>();
  const purge = useRouteMutation('user', cacheTaskRoutes.purgeSiteUrls, {
    input: (values: { urls: string }) => ({ params: { siteId }, body: { urls: urlsOf(values.urls) } }),
    invalidates: changes('purgeTasks'),
    form: { instance: form, fields: ['urls'] },
    onSuccess: (reply) => {
      toast.success(t('purgeSent', { count: reply.data.nodes.length }));
      form.resetFields();
      onClose();
    },
  });
  return (
    <FormModal<{ urls: string }>
      open={open}
      title={t('purge')}
      form={form}
      width={640}
      pending={purge.isPending}
      onCancel={onClose}
      onSubmit={(values) => purge.mutate(values)}
    >
      <UrlsField hint={t('purgeHint')} />
    </FormModal>
  );
}

/** The site's URL purges, newest first, refreshed while one runs. */
export function PurgeTasks({ siteId }: { siteId: number }) {
  const { t } = useTranslation('cacheTasks');
  const paging = useLocalPaging();
  const tasks = useQuery({
    ...routeQuery('user', cacheTaskRoutes.listSitePurgeTasks, {
      params: { siteId },
      query: { page: paging.page, pageSize: paging.pageSize },
    }),
    refetchInterval: whileRunning,
  });
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('purgeTasks')}
      </Typography.Title>
      <CacheTasksTable list={tasks} paging={paging} />
    </>
  );
}
