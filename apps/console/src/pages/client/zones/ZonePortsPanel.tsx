import { ZONE_PORT_TYPES, type ZonePort, type ZonePortType, zoneSettingRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { createdText, toastText } from '../../../app/toast';
import { FitTable } from '../../../components/FitTable';
import { actionsColumn, RowActions } from '../../../components/RowActions';
import { NumberInput } from '../../../forms/NumberInput';
import { numberFieldRules } from '../../../forms/zod-rules';
import { ZoneReservedPortsPanel } from './ZoneReservedPortsPanel';

interface PortValues {
  port: number;
  portType: ZonePortType;
}

/**
 * The zone's listen ports: every node of the zone serves each one (HTTP ports plain, HTTPS ports
 * with certificates by SNI). Adding a port or changing one makes the nodes reload nginx.
 */
export function ZonePortsPanel({ zoneId }: { zoneId: number }) {
  const { t } = useTranslation(['zoneSettings']);
  const params = { zoneID: zoneId };
  const ports = useQuery(routeQuery('client', zoneSettingRoutes.listZonePorts, { params }));
  const [form] = Form.useForm<PortValues>();
  const [editing, setEditing] = useState<number | null>(null);
  const invalidates = changes('zonePorts');
  const add = useRouteMutation('client', zoneSettingRoutes.createZonePorts, {
    input: (port: PortValues) => ({ params, body: { ports: [port] } }),
    invalidates,
    success: createdText,
    // The one port added is `ports.0.port` on the server.
    form: { instance: form, fields: (path) => (path[0] === 'ports' ? path[2] : undefined) },
    onSuccess: () => form.resetFields(),
  });
  const update = useRouteMutation('client', zoneSettingRoutes.updateZonePort, {
    input: (body: PortValues & { id: number }) => ({ params, body }),
    invalidates,
    success: () => toastText('updateSuccess'),
    onSuccess: () => setEditing(null),
  });
  const remove = useRouteMutation('client', zoneSettingRoutes.deleteZonePorts, {
    input: (id: number) => ({ params, body: { ids: [id] } }),
    invalidates,
    success: () => toastText('deleteSuccess'),
  });
  const typeOptions = ZONE_PORT_TYPES.map((type) => ({ value: type, label: t(`ports.types.${type}`) }));

  return (
    <>
      <Form<PortValues>
        form={form}
        layout="inline"
        initialValues={{ portType: 'http' }}
        onFinish={(values) => add.mutate(values)}
        style={{ marginBottom: 16 }}
      >
        <Form.Item
          name="port"
          label={t('ports.port')}
          rules={numberFieldRules(zoneSettingRoutes.createZonePorts.request.body, 'ports.port')}
        >
          <NumberInput aria-label={t('ports.port')} />
        </Form.Item>
        <Form.Item name="portType" label={t('ports.portType')}>
          <Select options={typeOptions} style={{ width: 120 }} aria-label={t('ports.portType')} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={add.isPending}>
          {t('ports.add')}
        </Button>
      </Form>
      <FitTable<ZonePort>
        rowKey="id"
        size="small"
        loading={ports.isLoading}
        dataSource={ports.data?.data ?? []}
        pagination={false}
        columns={[
          { key: 'port', title: t('ports.port'), dataIndex: 'port' },
          {
            key: 'portType',
            title: t('ports.portType'),
            render: (_: unknown, row) =>
              editing === row.id ? (
                <Select
                  size="small"
                  aria-label={t('ports.portType')}
                  defaultValue={row.portType}
                  options={typeOptions}
                  style={{ width: 120 }}
                  onChange={(portType) => update.mutate({ id: row.id, port: row.port, portType })}
                />
              ) : (
                t(`ports.types.${row.portType}`)
              ),
          },
          actionsColumn(
            (row) => (
              <RowActions
                onEdit={() => setEditing(editing === row.id ? null : row.id)}
                editLabel={editing === row.id ? t('ports.done') : t('ports.changeType')}
                deleteConfirm={t('ports.deleteConfirm', { port: row.port })}
                deleting={remove.isPending}
                deleteDisabled={(ports.data?.total ?? 0) <= 1}
                onDelete={() => remove.mutate(row.id)}
              />
            ),
            '',
          ),
        ]}
      />
      <ZoneReservedPortsPanel zoneId={zoneId} />
    </>
  );
}
