import { type OperatorNotify, notificationRoutes as r } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { PageTitle } from '../../../components/PageTitle';
import { OperatorRecipientsForm } from './AlertRecipientsForm';
import { EmailSettingForm } from './EmailSettingForm';
import { TelegramSettingForm } from './TelegramSettingForm';

const RECIPIENT_FIELDS = ['kinds', 'emails', 'telegram', 'language'];

/**
 * `/client/systemManagement/notification`: the operator's e-mail and Telegram channels (each with
 * its test) and who gets its alerts (spec part 2 §7 "System settings": email, email/test, tg, tg/test).
 */
export function NotificationSettingPage() {
  const { t } = useTranslation(['notifications', 'shell', 'common']);
  const canWrite = useCan('client.settings.write');
  const email = useQuery(routeQuery('client', r.getEmailSetting, {}));
  const tg = useQuery(routeQuery('client', r.getTgSetting, {}));
  const notify = useQuery(routeQuery('client', r.getOperatorNotify, {}));
  const [form] = Form.useForm<OperatorNotify>();
  const save = useRouteMutation('client', r.saveOperatorNotify, {
    input: (body: OperatorNotify) => ({ body }),
    invalidates: changes('notifications'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: RECIPIENT_FIELDS },
  });
  const failed = email.isError || tg.isError || notify.isError;
  const loaded = email.data && tg.data && notify.data;
  return (
    <>
      <PageTitle>{t('shell:menu.notification')}</PageTitle>
      <Alert type="info" showIcon title={t('hint')} style={{ marginBottom: 16 }} />
      {failed && (
        <Alert
          type="error"
          title={t('failed')}
          action={
            <Button
              onClick={() => {
                void email.refetch();
                void tg.refetch();
                void notify.refetch();
              }}
            >
              {t('common:actions.retry')}
            </Button>
          }
        />
      )}
      {!loaded && !failed && <Spin />}
      {loaded && (
        <>
          <Card title={t('email.title')} style={{ marginBottom: 16 }}>
            <EmailSettingForm current={email.data.data} canWrite={canWrite} />
          </Card>
          <Card title={t('tg.title')} style={{ marginBottom: 16 }}>
            <TelegramSettingForm current={tg.data.data} canWrite={canWrite} />
          </Card>
          <Card title={t('recipients.title')}>
            <OperatorRecipientsForm
              form={form}
              value={notify.data.data}
              canWrite={canWrite}
              saving={save.isPending}
              onSave={(value) => save.mutate(value)}
            />
          </Card>
        </>
      )}
    </>
  );
}
