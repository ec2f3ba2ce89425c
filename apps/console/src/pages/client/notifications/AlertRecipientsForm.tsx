import { ALERT_KINDS, type OperatorNotify } from '@rampart/contract';
import type { FormInstance } from 'antd';
import { Button, Form, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { RecipientFields } from '../../../features/notifications/RecipientFields';

/** The operator's own alerts: recipients and its Telegram chat or not (the attack-spike rate: the Trigger rates tab). */
export function OperatorRecipientsForm(props: {
  form: FormInstance<OperatorNotify>;
  value: OperatorNotify;
  canWrite: boolean;
  saving: boolean;
  onSave: (value: OperatorNotify) => void;
}) {
  const { t } = useTranslation('notifications');
  return (
    <Form
      form={props.form}
      layout="vertical"
      style={{ maxWidth: 720 }}
      disabled={!props.canWrite}
      initialValues={props.value}
      onFinish={() => props.onSave(props.form.getFieldsValue(true))}
    >
      <RecipientFields kinds={ALERT_KINDS} />
      <Form.Item name="telegram" label={t('recipients.telegram')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <div>
        <Button type="primary" htmlType="submit" loading={props.saving}>
          {t('save')}
        </Button>
      </div>
    </Form>
  );
}
