import { CUSTOMER_ALERT_KINDS, type CustomerNotify, notificationRoutes as r } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { LoadFailed } from '../../../components/LoadFailed';
import { PageTitle } from '../../../components/PageTitle';
import { RecipientFields } from '../../../features/notifications/RecipientFields';

const FIELDS = ['kinds', 'emails', 'telegramChatId', 'language'];

/**
 * `/user/systemManagement/notifySetting` (spec part 1 §2): which alerts about its sites the customer
 * gets and where, sent through its operator's mail server and Telegram bot.
 */
export function NotifySettingPage() {
  const { t } = useTranslation(['notifications', 'shell', 'common']);
  const canWrite = useCan('user.notify.write');
  const [form] = Form.useForm<CustomerNotify>();
  const setting = useQuery(routeQuery('user', r.getCustomerNotify, {}));
  const save = useRouteMutation('user', r.saveCustomerNotify, {
    input: (body: CustomerNotify) => ({ body }),
    invalidates: changes('notifications'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: FIELDS },
  });
  return (
    <>
      <PageTitle>{t('shell:menu.notifySetting')}</PageTitle>
      <Alert type="info" showIcon title={t('customer.hint')} style={{ marginBottom: 16 }} />
      {setting.isError && <LoadFailed title={t('failed')} onRetry={() => setting.refetch()} />}
      {setting.isLoading && <Spin />}
      {setting.data && (
        <Form
          form={form}
          layout="vertical"
          style={{ maxWidth: 720 }}
          disabled={!canWrite}
          initialValues={setting.data.data}
          onFinish={() => save.mutate(form.getFieldsValue(true))}
        >
          <RecipientFields kinds={CUSTOMER_ALERT_KINDS} />
          <Form.Item name="telegramChatId" label={t('customer.telegramChatId')} extra={t('customer.chatHint')}>
            <Input placeholder="-1001234567890" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('save')}
          </Button>
        </Form>
      )}
    </>
  );
}
