import { type Zone, zoneRoutes } from '@rampart/contract';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { useRouteMutation } from '../../../app/route-query';
import { createdText, toastText } from '../../../app/toast';
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
  const invalidates = changes('zones');
  const create = useRouteMutation('client', zoneRoutes.createZone, {
    input: (body: ZoneValues) => ({ body }),
    invalidates,
    success: createdText,
    form: { instance: form, fields: FIELDS },
    onSuccess: onClose,
  });
  const update = useRouteMutation('client', zoneRoutes.updateZone, {
    input: (body: ZoneValues & { id: number }) => ({ body }),
    invalidates,
    success: () => toastText('updateSuccess'),
    form: { instance: form, fields: FIELDS },
    onSuccess: onClose,
  });
  const existing = zone === 'new' ? null : zone;

  return (
    <FormModal<ZoneValues>
      open={zone !== null}
      title={existing ? t('edit') : t('create')}
      form={form}
      pending={create.isPending || update.isPending}
      onCancel={onClose}
      initialValues={existing ? { name: existing.name, memo: existing.memo } : { memo: '' }}
      onSubmit={(values) => (existing ? update.mutate({ ...values, id: existing.id }) : create.mutate(values))}
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
