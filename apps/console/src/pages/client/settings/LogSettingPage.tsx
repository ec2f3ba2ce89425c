import {
  type LogRetention,
  logRetentionSchema,
  logSettingRoutes,
  RAW_RETENTION_DAYS_MAX,
  RAW_RETENTION_DAYS_MIN,
  ROLLUP_RETENTION_DAYS_MAX,
  ROLLUP_RETENTION_DAYS_MIN,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Modal, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { LoadFailed } from '../../../components/LoadFailed';
import { PageTitle } from '../../../components/PageTitle';
import { NumberInput } from '../../../forms/NumberInput';
import { schemaRules } from '../../../forms/zod-rules';
import { LogExportSettingForm } from './LogExportSettingForm';
import { LogPartsTable } from './LogPartsTable';

const rules = schemaRules(logRetentionSchema);

/**
 * `/client/systemManagement/logSetting`: the log setting (`client/setting/log`): how many days the
 * analytics store keeps raw request events and their rollups, and the store's parts (a table's rows
 * of one UTC day) to delete by hand. A shorter retention asks first: the analytics job deletes what
 * is older at its next run. The store is the installation's, so another operator is told so.
 */
export function LogSettingPage() {
  const { t } = useTranslation(['logSetting', 'shell', 'common']);
  const canWrite = useCan('client.settings.write');
  const [form] = Form.useForm<LogRetention>();
  // The retention about to be saved when it is shorter than the current one; null when not asking.
  const [asking, setAsking] = useState<LogRetention | null>(null);
  const setting = useQuery(routeQuery('client', logSettingRoutes.getLogSetting, {}));
  const save = useRouteMutation('client', logSettingRoutes.putLogSetting, {
    input: (body: LogRetention) => ({ body }),
    invalidates: changes('logSetting'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: ['rawRetentionDays', 'rollupRetentionDays'] },
  });
  const current = setting.data?.data;
  const notOurs = setting.error instanceof ApiError && setting.error.code === 101018;

  const submit = (values: LogRetention) => {
    const shorter =
      current !== undefined &&
      (values.rawRetentionDays < current.rawRetentionDays || values.rollupRetentionDays < current.rollupRetentionDays);
    if (shorter) setAsking(values);
    else save.mutate(values);
  };

  return (
    <>
      <PageTitle>{t('shell:menu.logSetting')}</PageTitle>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 820 }}>
        {t('intro')}
      </Typography.Paragraph>
      {notOurs && <Alert type="info" showIcon title={t('notOurs')} style={{ maxWidth: 820 }} />}
      {setting.isError && !notOurs && <LoadFailed title={t('failed')} onRetry={() => setting.refetch()} />}
      {setting.isLoading && <Spin />}
      {current && (
        <>
          <Typography.Title level={5}>{t('retentionTitle')}</Typography.Title>
          <Form<LogRetention>
            form={form}
            layout="vertical"
            style={{ maxWidth: 480, marginBottom: 24 }}
            initialValues={current}
            disabled={!canWrite}
            onFinish={submit}
          >
            <Form.Item
              name="rawRetentionDays"
              label={t('rawRetentionDays')}
              extra={t('rawHint', { min: RAW_RETENTION_DAYS_MIN, max: RAW_RETENTION_DAYS_MAX })}
              rules={rules('rawRetentionDays')}
              required
            >
              <NumberInput suffix={t('days')} style={{ width: 200 }} />
            </Form.Item>
            <Form.Item
              name="rollupRetentionDays"
              label={t('rollupRetentionDays')}
              extra={t('rollupHint', { min: ROLLUP_RETENTION_DAYS_MIN, max: ROLLUP_RETENTION_DAYS_MAX })}
              rules={rules('rollupRetentionDays')}
              dependencies={['rawRetentionDays']}
              required
            >
              <NumberInput suffix={t('days')} style={{ width: 200 }} />
            </Form.Item>
            {canWrite && (
              <Button type="primary" htmlType="submit" loading={save.isPending && asking === null}>
                {t('save')}
              </Button>
            )}
          </Form>
          <Modal
            open={asking !== null}
            title={t('confirmShorter')}
            okText={t('save')}
            okButtonProps={{ danger: true, loading: save.isPending }}
            onOk={() => asking && save.mutate(asking, { onSettled: () => setAsking(null) })}
            onCancel={() => setAsking(null)}
            destroyOnHidden
          >
            {t('confirmShorterText', asking ?? current)}
          </Modal>
          <LogExportSettingForm />
          <LogPartsTable />
        </>
      )}
    </>
  );
}
