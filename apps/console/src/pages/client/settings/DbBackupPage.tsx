import {
  DB_BACKUP_INTERVAL_HOURS_MAX,
  DB_BACKUP_KEEP_MAX,
  type DbBackupSetting,
  dbBackupRoutes,
  dbBackupSettingSchema,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Spin, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { DateTime } from '../../../components/DateTime';
import { PageTitle } from '../../../components/PageTitle';
import { NumberInput } from '../../../forms/NumberInput';
import { schemaRules } from '../../../forms/zod-rules';
import { DB_BACKUP_REFRESH_MS, DbBackupsTable } from './DbBackupsTable';

const rules = schemaRules(dbBackupSettingSchema);

/**
 * `/client/systemManagement/dbBackup`: backups of the config store (`client/setting/DBBackup*`,
 * docs/decisions.md "Config store backups"): the schedule, the list with back up now, download,
 * delete and restore (asked first). Only the installation's operator reaches it.
 */
export function DbBackupPage() {
  const { t } = useTranslation(['dbBackup', 'shell', 'common']);
  const canWrite = useCan('client.settings.write');
  const [form] = Form.useForm<DbBackupSetting>();
  const state = useQuery({
    ...routeQuery('client', dbBackupRoutes.getDbBackupSetting, {}),
    refetchInterval: (query) => (query.state.data?.data.running ? DB_BACKUP_REFRESH_MS : false),
  });
  const save = useRouteMutation('client', dbBackupRoutes.putDbBackupSetting, {
    input: (body: DbBackupSetting) => ({ body }),
    invalidates: changes('dbBackups'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: ['enabled', 'intervalHours', 'keep'] },
  });
  const current = state.data?.data;
  const notOurs = state.error instanceof ApiError && state.error.code === 101018;

  return (
    <>
      <PageTitle>{t('shell:menu.dbBackup')}</PageTitle>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 820 }}>
        {t('intro')}
      </Typography.Paragraph>
      {notOurs && <Alert type="info" showIcon title={t('notOurs')} style={{ maxWidth: 820 }} />}
      {state.isError && !notOurs && (
        <Alert
          type="error"
          title={t('failed')}
          action={<Button onClick={() => state.refetch()}>{t('common:actions.retry')}</Button>}
        />
      )}
      {state.isLoading && <Spin />}
      {current && (
        <>
          {current.pendingRestore !== null && (
            <Alert type="warning" showIcon title={t('pendingRestore')} style={{ maxWidth: 820, marginBottom: 16 }} />
          )}
          <Typography.Title level={5}>{t('scheduleTitle')}</Typography.Title>
          <Form<DbBackupSetting>
            form={form}
            layout="vertical"
            style={{ maxWidth: 480, marginBottom: 24 }}
            initialValues={current.setting}
            disabled={!canWrite}
            onFinish={(values) => save.mutate(values)}
          >
            <Form.Item name="enabled" label={t('enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item
              name="intervalHours"
              label={t('intervalHours')}
              extra={t('intervalHint', { max: DB_BACKUP_INTERVAL_HOURS_MAX })}
              rules={rules('intervalHours')}
              required
            >
              <NumberInput suffix={t('hours')} style={{ width: 200 }} />
            </Form.Item>
            <Form.Item
              name="keep"
              label={t('keep')}
              extra={t('keepHint', { max: DB_BACKUP_KEEP_MAX })}
              rules={rules('keep')}
              required
            >
              <NumberInput style={{ width: 200 }} />
            </Form.Item>
            {current.nextAt && (
              <Typography.Paragraph type="secondary">
                {t('nextAt')} <DateTime value={current.nextAt} />
              </Typography.Paragraph>
            )}
            {canWrite && (
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {t('save')}
              </Button>
            )}
          </Form>
          <DbBackupsTable state={current} />
        </>
      )}
    </>
  );
}
