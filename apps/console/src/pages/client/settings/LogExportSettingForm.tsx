import {
  LOG_EXPORT_RETENTION_DAYS_MAX,
  LOG_EXPORT_RETENTION_DAYS_MIN,
  LOG_EXPORT_SPACE_MB_MAX,
  LOG_EXPORT_SPACE_MB_MIN,
  type LogExportSetting,
  logExportSettingSchema,
  logSettingRoutes,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { NumberInput } from '../../../forms/NumberInput';
import { schemaRules } from '../../../forms/zod-rules';

const rules = schemaRules(logExportSettingSchema);

/**
 * The log setting page's export files part (`client/setting/log/export`): the days customers' log
 * export files are kept and the space all of them may take. Saved, it applies at once to the files
 * already written.
 */
export function LogExportSettingForm() {
  const { t } = useTranslation('logSetting');
  const canWrite = useCan('client.settings.write');
  const [form] = Form.useForm<LogExportSetting>();
  const setting = useQuery(routeQuery('client', logSettingRoutes.getLogExportSetting, {}));
  const save = useRouteMutation('client', logSettingRoutes.putLogExportSetting, {
    input: (body: LogExportSetting) => ({ body }),
    invalidates: changes('logExportSetting'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: ['retentionDays', 'spaceMB'] },
  });
  const current = setting.data?.data;
  if (!current) return null;
  return (
    <>
      <Typography.Title level={5}>{t('exports.title')}</Typography.Title>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 820 }}>
        {t('exports.intro')}
      </Typography.Paragraph>
      <Form<LogExportSetting>
        form={form}
        layout="vertical"
        style={{ maxWidth: 480, marginBottom: 24 }}
        initialValues={current}
        disabled={!canWrite}
        onFinish={(values) => save.mutate(values)}
      >
        <Form.Item
          name="retentionDays"
          label={t('exports.retentionDays')}
          extra={t('exports.retentionHint', { min: LOG_EXPORT_RETENTION_DAYS_MIN, max: LOG_EXPORT_RETENTION_DAYS_MAX })}
          rules={rules('retentionDays')}
          required
        >
          <NumberInput suffix={t('days')} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item
          name="spaceMB"
          label={t('exports.spaceMB')}
          extra={t('exports.spaceHint', { min: LOG_EXPORT_SPACE_MB_MIN, max: LOG_EXPORT_SPACE_MB_MAX })}
          rules={rules('spaceMB')}
          required
        >
          <NumberInput suffix="MiB" style={{ width: 200 }} />
        </Form.Item>
        {canWrite && (
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('exports.save')}
          </Button>
        )}
      </Form>
    </>
  );
}
