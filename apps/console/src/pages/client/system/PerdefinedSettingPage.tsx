import {
  ERROR_PAGE_LANGUAGES,
  type PerdefinedSetting,
  type PerdefinedSettingInput,
  systemSettingRoutes as r,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Select, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toast } from '../../../app/toast';
import { LoadFailed } from '../../../components/LoadFailed';
import { PageTitle } from '../../../components/PageTitle';
import { CompressionFields } from '../../user/site-setting/options/CompressionCard';

const FIELDS = ['gzip.enabled', 'gzip.types', 'gzip.minLength', 'errorPageLanguage'];

/**
 * `/client/systemManagement/perdefinedSetting` (spec part 1 §2 `perdefinedSetting`): the site
 * settings every new site of the operator starts with (client/setting/perdefined; docs/decisions.md
 * "Predefined settings"): HTTP compression and the language of the edge's own error pages.
 */
export function PerdefinedSettingPage() {
  const { t } = useTranslation(['systemSettings', 'siteSettings', 'shell', 'common']);
  const canWrite = useCan('client.settings.write');
  const [form] = Form.useForm<PerdefinedSettingInput>();
  const enabled = Form.useWatch(['gzip', 'enabled'], form) ?? false;
  const current = useQuery(routeQuery('client', r.getPerdefinedSetting, {}));
  const save = useRouteMutation('client', r.savePerdefinedSetting, {
    input: (body: PerdefinedSetting) => ({ body }),
    invalidates: changes('systemSettings'),
    form: { instance: form, fields: FIELDS },
    onSuccess: () => toast.success(t('perdefined.saved')),
  });
  return (
    <>
      <PageTitle>{t('shell:menu.perdefinedSetting')}</PageTitle>
      <Alert type="info" showIcon title={t('perdefined.intro')} style={{ marginBottom: 16 }} />
      {!current.data && current.isError && (
        <LoadFailed title={t('perdefined.failed')} onRetry={() => current.refetch()} />
      )}
      {!current.data && !current.isError && <Spin />}
      {current.data && (
        <Card>
          <Form<PerdefinedSettingInput>
            form={form}
            layout="vertical"
            aria-label={t('shell:menu.perdefinedSetting')}
            style={{ maxWidth: 720 }}
            disabled={!canWrite}
            initialValues={current.data.data}
            onFinish={() => save.mutate(form.getFieldsValue(true) as PerdefinedSetting)}
          >
            <CompressionFields prefix="gzip" enabled={enabled} />
            <Form.Item name="errorPageLanguage" label={t('siteSettings:pages.language')}>
              <Select
                style={{ width: 240 }}
                aria-label={t('siteSettings:pages.language')}
                options={ERROR_PAGE_LANGUAGES.map((code) => ({
                  value: code,
                  label: t(`common:languageNames.${code}`),
                }))}
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('save')}
            </Button>
          </Form>
        </Card>
      )}
    </>
  );
}
