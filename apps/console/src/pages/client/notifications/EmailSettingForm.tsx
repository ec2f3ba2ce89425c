import {
  type EmailSetting,
  emailSettingInSchema,
  emailTestInSchema,
  notificationRoutes as r,
  SMTP_TLS_MODES,
  type SmtpTlsMode,
} from '@rampart/contract';
import { Button, Form, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { NumberInput } from '../../../forms/NumberInput';
import { schemaRules } from '../../../forms/zod-rules';
import { type Outcome, refusalOf, TestOutcome } from './TestOutcome';

interface Values {
  host: string;
  port: number;
  tlsMode: SmtpTlsMode;
  user: string;
  password: string;
  from: string;
  to: string;
}

const SAVED = ['host', 'port', 'tlsMode', 'user', 'password', 'from'];
const FIELDS = [...SAVED, 'to'];
const rules = schemaRules(emailTestInSchema);
const saveRules = schemaRules(emailSettingInSchema);
const bodyOf = ({ to: _, password, ...v }: Values) => ({ ...v, user: v.user ?? '', password: password || undefined });

/** The operator's SMTP server (`client/setting/email`), and a test mail (`email/test`, 101020 with the server's words). */
export function EmailSettingForm({ current, canWrite }: { current: EmailSetting | null; canWrite: boolean }) {
  const { t } = useTranslation('notifications');
  const [form] = Form.useForm<Values>();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const save = useRouteMutation('client', r.saveEmailSetting, {
    input: (v: Values) => ({ body: bodyOf(v) }),
    invalidates: changes('notifications'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: FIELDS },
    onSuccess: () => form.setFieldsValue({ password: '' }),
  });
  const test = useRouteMutation('client', r.testEmailSetting, {
    input: (v: Values) => ({ body: { ...bodyOf(v), to: v.to } }),
    invalidates: [],
    form: { instance: form, fields: FIELDS },
    onSuccess: (reply) => setOutcome({ ok: true, text: reply.data.detail }),
  });
  const runSave = async () => {
    try {
      await form.validateFields(SAVED);
    } catch {
      return;
    }
    save.mutate(form.getFieldsValue(true));
  };
  const runTest = async () => {
    setOutcome(null);
    try {
      await form.validateFields();
    } catch {
      return;
    }
    test.mutate(form.getFieldsValue(true), { onError: (error) => setOutcome(refusalOf(error, 101020)) });
  };
  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxWidth: 560 }}
      disabled={!canWrite}
      initialValues={{ port: 587, tlsMode: 'starttls', user: '', password: '', to: '', ...(current ?? {}) }}
    >
      <Form.Item name="host" label={t('email.host')} rules={saveRules('host')} validateTrigger={[]}>
        <Input placeholder="smtp.example.com" />
      </Form.Item>
      <Space>
        <Form.Item name="port" label={t('email.port')} rules={saveRules('port')}>
          <NumberInput />
        </Form.Item>
        <Form.Item name="tlsMode" label={t('email.tlsMode')}>
          <Select
            style={{ width: 240 }}
            options={SMTP_TLS_MODES.map((m) => ({ value: m, label: t(`email.tlsModes.${m}`) }))}
          />
        </Form.Item>
      </Space>
      <Form.Item name="user" label={t('email.user')} rules={saveRules('user')}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="password" label={t('email.password')} extra={current?.hasPassword ? t('secretKept') : undefined}>
        <Input.Password autoComplete="new-password" placeholder={current?.hasPassword ? t('secretPlaceholder') : ''} />
      </Form.Item>
      <Form.Item name="from" label={t('email.from')} rules={saveRules('from')} validateTrigger={[]}>
        <Input placeholder="alerts@example.com" />
      </Form.Item>
      <Form.Item name="to" label={t('email.to')} rules={rules('to')} validateTrigger={[]}>
        <Input placeholder="ops@example.com" />
      </Form.Item>
      <Space>
        <Button type="primary" onClick={runSave} loading={save.isPending}>
          {t('save')}
        </Button>
        <Button onClick={runTest} loading={test.isPending}>
          {t('test')}
        </Button>
      </Space>
      <TestOutcome outcome={outcome} />
    </Form>
  );
}
