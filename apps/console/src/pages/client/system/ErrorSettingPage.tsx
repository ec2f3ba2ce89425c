import { ERROR_PAGE_STATUSES, systemSettingRoutes as r } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Collapse, Form, Input, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toast } from '../../../app/toast';
import { LoadFailed } from '../../../components/LoadFailed';
import { PageTitle } from '../../../components/PageTitle';

type Values = Record<string, string | undefined>;
const fieldOf = (status: number) => `s${status}`;

/**
 * `/client/systemManagement/errorSetting` (spec part 1 §2 `errorSetting`): the operator's default
 * pages for the statuses the edge answers itself, one HTML text per status (empty: none).
 */
export function ErrorSettingPage() {
  const { t } = useTranslation(['systemSettings', 'shell']);
  const canWrite = useCan('client.settings.write');
  const current = useQuery(routeQuery('client', r.getOperatorErrorPages, {}));
  const save = useRouteMutation('client', r.saveOperatorErrorPages, {
    input: (values: Values) => ({
      body: {
        pages: ERROR_PAGE_STATUSES.map((status) => ({ status, body: values[fieldOf(status)] ?? '' })).filter(
          (page) => page.body.trim() !== '',
        ),
      },
    }),
    invalidates: changes('systemSettings'),
    onSuccess: (reply) => {
      const statuses = reply.data.pages.map((p) => p.status);
      toast.success(
        statuses.length === 0
          ? t('errorPages.savedNone')
          : t('errorPages.saved', { count: statuses.length, statuses: statuses.join(', ') }),
      );
    },
  });
  const pages = current.data?.data.pages;
  const initial: Values = Object.fromEntries((pages ?? []).map((p) => [fieldOf(p.status), p.body]));
  return (
    <>
      <PageTitle>{t('shell:menu.errorSetting')}</PageTitle>
      <Alert type="info" showIcon title={t('errorPages.intro')} style={{ marginBottom: 16 }} />
      {!pages && current.isError && <LoadFailed title={t('errorPages.failed')} onRetry={() => current.refetch()} />}
      {!pages && !current.isError && <Spin />}
      {pages && (
        <Form layout="vertical" disabled={!canWrite} initialValues={initial} onFinish={(v: Values) => save.mutate(v)}>
          <Collapse
            style={{ marginBottom: 16 }}
            defaultActiveKey={pages.map((p) => String(p.status))}
            items={ERROR_PAGE_STATUSES.map((status) => ({
              key: String(status),
              label: t('errorPages.status', { status }),
              forceRender: true,
              children: (
                <Form.Item name={fieldOf(status)} label={t('errorPages.body', { status })} style={{ marginBottom: 0 }}>
                  <Input.TextArea rows={6} spellCheck={false} placeholder={t('errorPages.placeholder')} />
                </Form.Item>
              ),
            }))}
          />
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('save')}
          </Button>
        </Form>
      )}
    </>
  );
}
