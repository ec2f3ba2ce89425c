import { type ZoneSettings, zoneRoutes } from '@rampart/contract';
import { Button, Form, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { NumberInput } from '../../../forms/NumberInput';
import { numberFieldRules } from '../../../forms/zod-rules';

/**
 * The proof of work the zone's shield, click-to-verify and slider pages ask (docs/decisions
 * "new-harden-challenge-work"), in bits: each bit doubles a visitor's wait.
 */
export function ZoneChallengeWorkPanel({ zoneId, current }: { zoneId: number; current: ZoneSettings }) {
  const { t } = useTranslation(['zoneSettings']);
  const [form] = Form.useForm<{ bits: number | null }>();
  const value = current.challengeWorkBits;
  useEffect(() => form.setFieldsValue({ bits: value }), [form, value]);
  const save = useRouteMutation('client', zoneRoutes.setZoneChallengeWorkBits, {
    input: (bits: number) => ({ params: { zoneID: zoneId }, body: { bits } }),
    invalidates: changes('zones'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: ['bits'] },
  });
  const label = t('challengeWork.bits');
  return (
    <div style={{ marginTop: 24 }}>
      <Typography.Title level={5}>{t('challengeWork.title')}</Typography.Title>
      <Form
        form={form}
        name="challengeWorkBits"
        layout="vertical"
        initialValues={{ bits: value }}
        onFinish={(values) => {
          if (values.bits !== null) save.mutate(values.bits);
        }}
        aria-label={label}
      >
        <Form.Item label={label} extra={t('challengeWork.help')} style={{ marginBottom: 16 }}>
          <Space.Compact>
            <Form.Item
              name="bits"
              noStyle
              rules={numberFieldRules(zoneRoutes.setZoneChallengeWorkBits.request.body, 'bits')}
            >
              <NumberInput aria-label={label} style={{ width: 160 }} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('challengeWork.save')}
            </Button>
          </Space.Compact>
        </Form.Item>
      </Form>
    </div>
  );
}
