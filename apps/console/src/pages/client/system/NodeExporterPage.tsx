import { NODE_EXPORTER_PORT, type NodeExporter, nodeExporterRoutes, nodeExporterSchema } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Space, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { PageTitle } from '../../../components/PageTitle';
import { listSchemaRules } from '../../../forms/line-rules';
import { NumberInput } from '../../../forms/NumberInput';
import { schemaRules } from '../../../forms/zod-rules';
import { i18n } from '../../../i18n/i18n';

interface Values {
  whiteIPs: string;
  limitCountSec: number;
  limitCountTimes: number;
}

const rules = schemaRules(nodeExporterSchema);
/** The allowed addresses box: every bad or repeated line named under it before anything is sent. */
const whiteIPsRules = listSchemaRules(nodeExporterSchema.shape.whiteIPs, (line, value, message) =>
  i18n.t('firewall:form.lineError', { line, value, message }),
);
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/**
 * `/client/systemManagement/nodeExporter`: who may scrape the Prometheus metrics of the operator's
 * nodes and how often (client/setting/nodeExporter; docs/decisions.md "Metrics"). Saved as a whole;
 * a refused address is named on the field by the server's error (`whiteIPs.N`).
 */
export function NodeExporterPage() {
  const { t } = useTranslation(['systemSettings', 'shell', 'common']);
  const canWrite = useCan('client.settings.write');
  const setting = useQuery(routeQuery('client', nodeExporterRoutes.getNodeExporter, {}));
  const [form] = Form.useForm<Values>();
  const current = setting.data?.data;
  useEffect(() => {
    if (current) form.setFieldsValue({ ...current, whiteIPs: current.whiteIPs.join('\n') });
  }, [form, current]);
  const save = useRouteMutation('client', nodeExporterRoutes.saveNodeExporter, {
    input: (body: NodeExporter) => ({ body }),
    invalidates: changes('nodeExporter'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: ['whiteIPs', 'limitCountSec', 'limitCountTimes'] },
  });
  return (
    <>
      <PageTitle>{t('shell:menu.nodeExporter')}</PageTitle>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title={t('nodeExporter.intro', { port: NODE_EXPORTER_PORT })}
      />
      {setting.isError && (
        <Alert
          type="error"
          title={t('nodeExporter.failed')}
          action={<Button onClick={() => void setting.refetch()}>{t('common:actions.retry')}</Button>}
        />
      )}
      {!current && !setting.isError && <Spin />}
      {current && (
        <Card>
          <Form
            form={form}
            layout="vertical"
            aria-label={t('shell:menu.nodeExporter')}
            style={{ maxWidth: 560 }}
            disabled={!canWrite}
            onFinish={(values) => save.mutate({ ...values, whiteIPs: lines(values.whiteIPs ?? '') })}
          >
            <Form.Item
              name="whiteIPs"
              label={t('nodeExporter.whiteIPs')}
              extra={t('nodeExporter.whiteIPsHelp')}
              rules={whiteIPsRules}
            >
              <Input.TextArea rows={5} aria-label={t('nodeExporter.whiteIPs')} placeholder="192.0.2.10" />
            </Form.Item>
            <Space align="start" wrap>
              <Form.Item
                name="limitCountTimes"
                label={t('nodeExporter.limitCountTimes')}
                rules={rules('limitCountTimes')}
              >
                <NumberInput aria-label={t('nodeExporter.limitCountTimes')} style={{ width: 160 }} />
              </Form.Item>
              <Form.Item name="limitCountSec" label={t('nodeExporter.limitCountSec')} rules={rules('limitCountSec')}>
                <NumberInput aria-label={t('nodeExporter.limitCountSec')} style={{ width: 160 }} />
              </Form.Item>
            </Space>
            <Alert type="info" style={{ marginBottom: 16 }} title={t('nodeExporter.limitHelp')} />
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('nodeExporter.save')}
            </Button>
          </Form>
        </Card>
      )}
    </>
  );
}
