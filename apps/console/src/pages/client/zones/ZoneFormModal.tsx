import { type Zone, zoneRoutes } from '@rampart/contract';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { useCreateOrUpdate } from '../../../app/use-create-or-update';
import { FormModal } from '../../../components/FormModal';
import { schemaRules } from '../../../forms/zod-rules';

interface ZoneValues {
  name: string;
  memo: string;
}

const FIELDS = ['name', 'memo'] as const;
const rules = schemaRules(zoneRoutes.createZone.request.body);

/** Creates a zone (`zone` is 'new') or edits one; closed when `zone` is null. */
export function ZoneFormModal({ zone, onClose }: { zone: Zone | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation('zones');
  const [form] = Form.useForm<ZoneValues>();
  const save = useCreateOrUpdate('client', {
    create: zoneRoutes.createZone,
    update: zoneRoutes.updateZone,
    createInput: (body: ZoneValues) => ({ body }),
    updateInput: (body) => ({ body }),
    invalidates: changes('zones'),
    form: { instance: form, fields: FIELDS },
    onSuccess: onClose,
  });
  const existing = zone === 'new' ? null : zone;

  return (
    <FormModal<ZoneValues>
      open={zone !== null}
      title={existing ? t('edit') : t('create')}
      form={form}
      pending={save.pending}
      onCancel={onClose}
      initialValues={existing ? { name: existing.name, memo: existing.memo } : { memo: '' }}
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="name" label={t('name')} rules={rules('name')} required>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="memo" label={t('memo')} rules={rules('memo')}>
        <Input.TextArea rows={2} />
      </Form.Item>
    </FormModal>
  );
}
