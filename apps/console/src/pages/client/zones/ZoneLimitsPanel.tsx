import { type ZoneSettings, zoneRoutes } from '@rampart/contract';
import { Button, Form, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { NumberInput } from '../../../forms/NumberInput';
import { numberFieldRules } from '../../../forms/zod-rules';

type LimitKey = 'invalidDomainLimitCount' | 'tlsLimitCount';
const ROUTES = {
  invalidDomainLimitCount: zoneRoutes.setZoneInvalidDomainLimitCount,
  tlsLimitCount: zoneRoutes.setZoneTlsLimitCount,
} as const;

/**
 * The zone's per-client-IP limits (docs/decisions.md "Zone limits"): requests for hosts the node
 * does not serve, and full TLS handshakes, each per node and minute; 0 = off. Each is saved by its
 * own button.
 */
export function ZoneLimitsPanel({ zoneId, current }: { zoneId: number; current: ZoneSettings }) {
  const { t } = useTranslation(['zoneSettings']);
  return (
    <div style={{ marginTop: 24 }}>
      <Typography.Title level={5}>{t('limits.title')}</Typography.Title>
      <LimitForm zoneId={zoneId} field="invalidDomainLimitCount" value={current.invalidDomainLimitCount} />
      <LimitForm zoneId={zoneId} field="tlsLimitCount" value={current.tlsLimitCount} />
    </div>
  );
}

function LimitForm({ zoneId, field, value }: { zoneId: number; field: LimitKey; value: number }) {
  const { t } = useTranslation(['zoneSettings']);
  const [form] = Form.useForm<{ count: number | null }>();
  useEffect(() => form.setFieldsValue({ count: value }), [form, value]);
  const save = useRouteMutation('client', ROUTES[field], {
    input: (count: number) => ({ params: { zoneID: zoneId }, body: { count } }),
    invalidates: changes('zones'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: ['count'] },
  });
  const label = t(`limits.${field}`);
  return (
    <Form
      form={form}
      name={field}
      layout="vertical"
      initialValues={{ count: value }}
      onFinish={(values) => save.mutate(values.count ?? 0)}
      aria-label={label}
    >
      <Form.Item label={label} extra={t(`limits.${field}Help`)} style={{ marginBottom: 16 }}>
        <Space.Compact>
          <Form.Item name="count" noStyle rules={numberFieldRules(ROUTES[field].request.body, 'count')}>
            <NumberInput aria-label={label} style={{ width: 160 }} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('limits.save')}
          </Button>
        </Space.Compact>
      </Form.Item>
    </Form>
  );
}
