import { PORT_TYPES, type VirtualNode, virtualNodeRoutes } from '@rampart/contract';
import { Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { useCreateOrUpdate } from '../../../app/use-create-or-update';
import { FormModal } from '../../../components/FormModal';
import { schemaRules } from '../../../forms/zod-rules';

interface VirtualNodeValues {
  name: string;
  portType: 7 | 4;
  memo: string;
}

const FIELDS = ['name', 'portType', 'memo'] as const;
const rules = schemaRules(virtualNodeRoutes.createVirtualNode.request.body);

/** Creates or edits a virtual node: name, port type (fixed once made), memo. */
export function VirtualNodeFormModal({
  zoneId,
  node,
  onClose,
}: {
  zoneId: number;
  /** 'new' creates, a virtual node edits it, null closes. */
  node: VirtualNode | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['virtualNodes', 'common']);
  const [form] = Form.useForm<VirtualNodeValues>();
  const params = { zoneID: zoneId };
  const save = useCreateOrUpdate('client', {
    create: virtualNodeRoutes.createVirtualNode,
    update: virtualNodeRoutes.updateVirtualNode,
    createInput: (body: VirtualNodeValues) => ({ params, body }),
    updateInput: ({ portType: _fixed, ...body }) => ({ params, body }),
    invalidates: changes('virtualNodes'),
    form: { instance: form, fields: FIELDS },
    onSuccess: onClose,
  });
  const existing = node === 'new' ? null : node;

  return (
    <FormModal<VirtualNodeValues>
      open={node !== null}
      title={existing ? t('edit') : t('create')}
      form={form}
      pending={save.pending}
      onCancel={onClose}
      initialValues={
        existing ? { name: existing.name, portType: existing.portType, memo: existing.memo } : { portType: 7, memo: '' }
      }
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="name" label={t('name')} rules={rules('name')} required>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="portType" label={t('portType')} required>
        <Radio.Group
          disabled={existing !== null}
          options={PORT_TYPES.map((value) => ({ value, label: t(`common:portTypes.${value}`) }))}
        />
      </Form.Item>
      <Form.Item name="memo" label={t('memo')} rules={rules('memo')}>
        <Input.TextArea rows={2} />
      </Form.Item>
    </FormModal>
  );
}
