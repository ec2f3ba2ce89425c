import { notificationRoutes as r, type TgSetting, tgSettingInSchema } from '@rampart/contract';
import { Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { schemaRules } from '../../../forms/zod-rules';
import { type Outcome, refusalOf, TestOutcome } from './TestOutcome';

interface Values {
  botToken: string;
  chatId: string;
}

const saveRules = schemaRules(tgSettingInSchema);
const bodyOf = (v: Values) => ({ botToken: v.botToken || undefined, chatId: v.chatId ?? '' });

/** The operator's Telegram bot and chat (`client/setting/tg`), and a test message (`tg/test`, 101021 when refused). */
export function TelegramSettingForm({ current, canWrite }: { current: TgSetting | null; canWrite: boolean }) {
  const { t } = useTranslation('notifications');
  const [form] = Form.useForm<Values>();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const save = useRouteMutation('client', r.saveTgSetting, {
    input: (v: Values) => ({ body: bodyOf(v) }),
    invalidates: changes('notifications'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: ['botToken', 'chatId'] },
    onSuccess: () => form.setFieldsValue({ botToken: '' }),
  });
  const test = useRouteMutation('client', r.testTgSetting, {
    input: (v: Values) => ({ body: bodyOf(v) }),
    invalidates: [],
    form: { instance: form, fields: ['botToken', 'chatId'] },
    onSuccess: (reply) => setOutcome({ ok: true, text: reply.data.detail }),
  });
  const run = async (which: 'save' | 'test') => {
    setOutcome(null);
    try {
      await form.validateFields();
    } catch {
      return;
    }
    const values = form.getFieldsValue(true);
    if (which === 'save') save.mutate(values);
    else test.mutate(values, { onError: (error) => setOutcome(refusalOf(error, 101021)) });
  };
  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxWidth: 560 }}
      disabled={!canWrite}
      initialValues={{ botToken: '', chatId: current?.chatId ?? '' }}
    >
      <Form.Item name="botToken" label={t('tg.botToken')} extra={current?.hasToken ? t('secretKept') : undefined}>
        <Input.Password autoComplete="new-password" placeholder={current?.hasToken ? t('secretPlaceholder') : ''} />
      </Form.Item>
      <Form.Item name="chatId" label={t('tg.chatId')} extra={t('tg.chatHint')} rules={saveRules('chatId')}>
        <Input placeholder="-1001234567890" />
      </Form.Item>
      <Space>
        <Button type="primary" onClick={() => run('save')} loading={save.isPending}>
          {t('save')}
        </Button>
        {/* A test without a chat is answered 101003 `required`, shown under the chat field. */}
        <Button onClick={() => run('test')} loading={test.isPending}>
          {t('test')}
        </Button>
      </Space>
      <TestOutcome outcome={outcome} />
    </Form>
  );
}
