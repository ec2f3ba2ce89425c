import { zoneSettingRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { refuseEntries } from '../../../forms/line-rules';

/** The typed numbers as the call's list of ports (a digit string read as its number), checked with the contract. */
const portsSchema = z.preprocess(
  (ports) => (ports as string[]).map((port) => (/^\d+$/.test(port) ? Number(port) : port)),
  zoneSettingRoutes.setZoneReservedPorts.request.body.shape.ports,
);

/**
 * Ports the zone's nodes keep for their hosts' own services (docs/decisions.md "Reserved ports"):
 * no layer-4 port of a customer and no listen port may use them. Typed as numbers into a tag list
 * and saved as a whole; a number a port of the zone uses is refused on its field.
 */
export function ZoneReservedPortsPanel({ zoneId }: { zoneId: number }) {
  const { t } = useTranslation(['zoneSettings']);
  const params = { zoneID: zoneId };
  const reserved = useQuery(routeQuery('client', zoneSettingRoutes.getZoneReservedPorts, { params }));
  const [form] = Form.useForm<{ ports: string[] }>();
  const current = reserved.data?.data;
  useEffect(() => {
    if (current) form.setFieldsValue({ ports: current.ports.map(String) });
  }, [form, current]);
  const save = useRouteMutation('client', zoneSettingRoutes.setZoneReservedPorts, {
    input: (ports: number[]) => ({ params, body: { ports } }),
    invalidates: changes('zoneReservedPorts'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: (path) => (path[0] === 'ports' ? 'ports' : undefined) },
  });
  const label = t('ports.reserved.label');
  return (
    <div style={{ marginTop: 24 }}>
      <Typography.Title level={5}>{t('ports.reserved.title')}</Typography.Title>
      <Form
        form={form}
        layout="vertical"
        aria-label={label}
        onFinish={(values) => save.mutate(values.ports.map(Number))}
      >
        <Form.Item
          name="ports"
          label={label}
          extra={t('ports.reserved.help', { nodePorts: current?.nodePorts.join(', ') ?? '' })}
          rules={[
            {
              validator: (_, value: string[] | undefined) =>
                refuseEntries(portsSchema, value ?? [], (position, port, message) =>
                  t('ports.reserved.portError', { position, value: port, message }),
                ),
            },
          ]}
        >
          <Select mode="tags" aria-label={label} tokenSeparators={[',', ' ']} open={false} style={{ maxWidth: 480 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending} disabled={!current}>
          {t('ports.reserved.save')}
        </Button>
      </Form>
    </div>
  );
}
