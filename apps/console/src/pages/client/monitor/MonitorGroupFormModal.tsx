import { type MonitorGroup, monitoringRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { changes } from '../../../app/resource-changes';
import { routeQuery } from '../../../app/route-query';
import { useCreateOrUpdate } from '../../../app/use-create-or-update';
import { FormModal } from '../../../components/FormModal';
import { type NodeOption, NodeSearchSelect } from '../../../features/monitoring/NodeSearchSelect';
import { NumberInput } from '../../../forms/NumberInput';
import { schemaRules } from '../../../forms/zod-rules';

interface GroupValues {
  name: string;
  memo: string;
  enabled: boolean;
  intervalSeconds: number;
  timeoutSeconds: number;
  failureThreshold: number;
  monitorIDs: number[];
  targets: NodeOption[];
}

function toBody({ targets, ...rest }: GroupValues) {
  return { ...rest, nodeIDs: Array.isArray(targets) ? targets.map((node) => node.value) : [] };
}

/** The form holds the picked nodes, the body their ids. */
const rules = schemaRules(
  z.preprocess((values) => toBody(values as GroupValues), monitoringRoutes.createMonitorGroup.request.body),
  {},
  (field) => (field === 'targets' ? 'nodeIDs' : field),
);
const r = monitoringRoutes;
const invalidates = changes('monitorGroups');

/** Creates or edits a monitor group: its probe settings, the monitor nodes that probe and the nodes probed. */
export function MonitorGroupFormModal({ group, onClose }: { group: MonitorGroup | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation('monitoring');
  const [form] = Form.useForm<GroupValues>();
  const monitors = useQuery({ ...routeQuery('client', r.metaMonitors, {}), enabled: group !== null });
  const fields = {
    instance: form,
    fields: (path: readonly string[]) => (path[0] === 'nodeIDs' ? 'targets' : path[0]),
  };
  const save = useCreateOrUpdate('client', {
    create: r.createMonitorGroup,
    update: r.updateMonitorGroup,
    createInput: (values: GroupValues) => ({ body: toBody(values) }),
    updateInput: ({ id, ...values }) => ({ body: { ...toBody(values), id } }),
    invalidates,
    form: fields,
    onSuccess: onClose,
  });
  const existing = group === 'new' ? null : group;
  const number = (name: keyof GroupValues, label: string) => (
    <Form.Item name={name} label={label} rules={rules(name)} required>
      <NumberInput aria-label={label} />
    </Form.Item>
  );

  return (
    <FormModal<GroupValues>
      open={group !== null}
      title={existing ? t('groupEdit') : t('groupCreate')}
      form={form}
      width={640}
      pending={save.pending}
      onCancel={onClose}
      initialValues={
        existing
          ? {
              ...existing,
              monitorIDs: existing.monitors.map((m) => m.id),
              targets: existing.targets.map((node) => ({ value: node.id, label: node.name })),
            }
          : {
              memo: '',
              enabled: true,
              intervalSeconds: 60,
              timeoutSeconds: 5,
              failureThreshold: 3,
              monitorIDs: [],
              targets: [],
            }
      }
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Alert type="info" showIcon title={t('probeHint')} style={{ marginBottom: 16 }} />
      <Form.Item name="name" label={t('name')} rules={rules('name')} required>
        <Input autoFocus />
      </Form.Item>
      <Space wrap>
        {number('intervalSeconds', t('intervalSeconds'))}
        {number('timeoutSeconds', t('timeoutSeconds'))}
        {number('failureThreshold', t('failureThreshold'))}
      </Space>
      <Form.Item name="monitorIDs" label={t('monitors')} rules={rules('monitorIDs')} required>
        <Select
          mode="multiple"
          aria-label={t('monitors')}
          loading={monitors.isLoading}
          options={monitors.data?.data.map((m) => ({ value: m.id, label: m.name }))}
        />
      </Form.Item>
      <Form.Item name="targets" label={t('targets')} rules={rules('targets')} required>
        <NodeSearchSelect multiple placeholder={t('searchNodes')} />
      </Form.Item>
      <Form.Item name="enabled" label={t('enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="memo" label={t('memo')} rules={rules('memo')}>
        <Input.TextArea rows={2} />
      </Form.Item>
    </FormModal>
  );
}
