import { monitoringRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { createdText } from '../../../app/toast';
import { FormModal } from '../../../components/FormModal';
import { type NodeOption, NodeSearchSelect } from '../../../features/monitoring/NodeSearchSelect';
import { schemaRules } from '../../../forms/zod-rules';

interface AddValues {
  source: 'dedicated' | 'edge';
  dedicated?: number;
  edge?: NodeOption[];
  memo: string;
}

function toBody(values: AddValues) {
  return {
    nodeID: values.source === 'edge' ? values.edge?.[0]?.value : values.dedicated,
    memo: values.memo,
  };
}

/** The picked node becomes `nodeID`: its issues show under the picker in use. */
const rules = schemaRules(
  z.preprocess((values) => toBody(values as AddValues), monitoringRoutes.createMonitorNode.request.body),
  {},
  (field) => (field === 'dedicated' || field === 'edge' ? 'nodeID' : field),
);
/** Candidates listed at once: machines waiting as monitors are few. */
const CANDIDATES = 100;

/**
 * Makes a node a monitor node: a registered machine left uninitialised (`client/monitor/nodes/notInit`)
 * or an initialised edge node that probes as well.
 */
export function AddMonitorModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('monitoring');
  const [form] = Form.useForm<AddValues>();
  const source = Form.useWatch('source', form) ?? 'dedicated';
  const candidates = useQuery({
    ...routeQuery('client', monitoringRoutes.listMonitorCandidates, { query: { page: 1, pageSize: CANDIDATES } }),
    enabled: open,
  });
  const create = useRouteMutation('client', monitoringRoutes.createMonitorNode, {
    input: (values: AddValues) => ({ body: { ...toBody(values), nodeID: toBody(values).nodeID ?? 0 } }),
    invalidates: changes('monitors'),
    success: createdText,
    form: { instance: form, fields: (path: readonly string[]) => (path[0] === 'nodeID' ? source : path[0]) },
    onSuccess: onClose,
  });
  const noCandidates = candidates.isSuccess && candidates.data.total === 0;

  return (
    <FormModal<AddValues>
      open={open}
      title={t('addMonitor')}
      form={form}
      pending={create.isPending}
      onCancel={onClose}
      initialValues={{ source: 'dedicated', memo: '' }}
      onSubmit={(values) => create.mutate(values)}
    >
      <Form.Item name="source" label={t('source')}>
        <Radio.Group
          options={[
            { value: 'dedicated', label: t('pickDedicated') },
            { value: 'edge', label: t('pickEdge') },
          ]}
        />
      </Form.Item>
      {source === 'dedicated' ? (
        <>
          {noCandidates && <Alert type="info" showIcon title={t('noCandidates')} style={{ marginBottom: 16 }} />}
          <Form.Item name="dedicated" label={t('kinds.dedicated')} rules={rules('dedicated')} required>
            <Select
              aria-label={t('kinds.dedicated')}
              loading={candidates.isLoading}
              options={candidates.data?.data.map((node) => ({
                value: node.id,
                label: `${node.name} (${node.ips.join(', ')})`,
              }))}
            />
          </Form.Item>
        </>
      ) : (
        <Form.Item name="edge" label={t('kinds.edge')} rules={rules('edge')} required>
          <NodeSearchSelect placeholder={t('searchNodes')} />
        </Form.Item>
      )}
      <Form.Item name="memo" label={t('memo')} rules={rules('memo')}>
        <Input.TextArea rows={2} />
      </Form.Item>
    </FormModal>
  );
}
