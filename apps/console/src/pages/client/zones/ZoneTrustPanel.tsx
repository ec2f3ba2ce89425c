import { REAL_IP_HEADERS, type ZoneTrustIn, zoneTrustInputSchema, zoneTrustRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Select, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { listSchemaRules } from '../../../forms/line-rules';
import { i18n } from '../../../i18n/i18n';

interface Values {
  proxies: string;
  header: ZoneTrustIn['header'];
  proxyProtocol: boolean;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The proxies box: every bad or repeated line named under it before anything is sent. */
const proxiesRules = listSchemaRules(zoneTrustInputSchema.shape.proxies, (line, value, message) =>
  i18n.t('firewall:form.lineError', { line, value, message }),
);

/**
 * The zone's trust setting (routes/zone-trust.ts; docs/decisions.md "The visitor's address behind
 * proxies"): the proxies, one per line, whose header or PROXY protocol address names the visitor.
 * Saved as a whole; every bad line is named on the field (the contract's check, then the server's).
 */
export function ZoneTrustPanel({ zoneId }: { zoneId: number }) {
  const { t } = useTranslation(['zoneSettings']);
  const params = { zoneID: zoneId };
  const trust = useQuery(routeQuery('client', zoneTrustRoutes.getZoneTrust, { params }));
  const [form] = Form.useForm<Values>();
  const current = trust.data?.data;
  useEffect(() => {
    if (current) form.setFieldsValue({ ...current, proxies: current.proxies.join('\n') });
  }, [form, current]);
  const save = useRouteMutation('client', zoneTrustRoutes.setZoneTrust, {
    input: (body: ZoneTrustIn) => ({ params, body }),
    invalidates: changes('zoneTrust'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: (path) => (path[0] === 'proxies' ? 'proxies' : undefined) },
  });
  const proxyProtocol = Form.useWatch('proxyProtocol', form);
  return (
    <Form
      form={form}
      layout="vertical"
      aria-label={t('trust.title')}
      style={{ maxWidth: 560 }}
      onFinish={(values) => save.mutate({ ...values, proxies: lines(values.proxies ?? '') })}
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('trust.intro')} />
      <Form.Item name="proxies" label={t('trust.proxies')} extra={t('trust.proxiesHelp')} rules={proxiesRules}>
        <Input.TextArea rows={5} aria-label={t('trust.proxies')} placeholder="10.0.0.0/8" />
      </Form.Item>
      <Form.Item name="header" label={t('trust.header')} extra={t('trust.headerHelp')}>
        <Select
          aria-label={t('trust.header')}
          disabled={proxyProtocol}
          options={REAL_IP_HEADERS.map((h) => ({ value: h, label: h }))}
          style={{ maxWidth: 240 }}
        />
      </Form.Item>
      <Form.Item name="proxyProtocol" label={t('trust.proxyProtocol')} valuePropName="checked">
        <Switch aria-label={t('trust.proxyProtocol')} />
      </Form.Item>
      {proxyProtocol && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t('trust.proxyProtocolWarning')} />
      )}
      <Button type="primary" htmlType="submit" loading={save.isPending} disabled={!current}>
        {t('trust.save')}
      </Button>
    </Form>
  );
}
