import { ACCOUNT_VERIFY_MODES, type AccountVerifyMode, systemSettingRoutes as r } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Radio, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toast } from '../../../app/toast';
import { LoadFailed } from '../../../components/LoadFailed';

/** `client/setting/accountVerify`: which of the operator's accounts must have a second factor. */
export function AccountVerifyTab({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation('systemSettings');
  const [form] = Form.useForm<{ mode: AccountVerifyMode }>();
  const current = useQuery(routeQuery('client', r.getAccountVerifySetting, {}));
  const save = useRouteMutation('client', r.saveAccountVerifySetting, {
    input: (mode: AccountVerifyMode) => ({ body: { mode } }),
    invalidates: changes('systemSettings'),
    form: { instance: form, fields: ['mode'] },
    onSuccess: (reply) => toast.success(t(`verify.saved.${reply.data.mode}`)),
  });
  if (!current.data && current.isError)
    return <LoadFailed title={t('verify.failed')} onRetry={() => current.refetch()} />;
  if (!current.data) return <Spin />;
  return (
    <>
      <Alert type="info" showIcon title={t('verify.intro')} style={{ marginBottom: 16 }} />
      <Form
        form={form}
        layout="vertical"
        disabled={!canWrite}
        initialValues={{ mode: current.data.data.mode }}
        onFinish={(values) => save.mutate(values.mode)}
      >
        <Form.Item name="mode" label={t('verify.label')} extra={t('verify.hint')}>
          <Radio.Group>
            <Space orientation="vertical">
              {ACCOUNT_VERIFY_MODES.map((mode) => (
                <Radio key={mode} value={mode}>
                  {t(`verify.modes.${mode}`)}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('save')}
        </Button>
      </Form>
    </>
  );
}
