import { type VirtualNode, virtualNodeRoutes } from '@rampart/contract';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { useRouteMutation } from '../../../app/route-query';
import { createdText } from '../../../app/toast';
import { FormModal } from '../../../components/FormModal';
import { schemaRules } from '../../../forms/zod-rules';

interface CnameValues {
  value: string;
}

const rules = schemaRules(virtualNodeRoutes.addVirtualNodeCname.request.body);

/** Gives a virtual node its CNAME target; refusals (a name that is not a host, other records) go under the field. */
export function CnameRecordModal({
  zoneId,
  node,
  onClose,
}: {
  zoneId: number;
  node: VirtualNode | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('virtualNodes');
  const [form] = Form.useForm<CnameValues>();
  const add = useRouteMutation('client', virtualNodeRoutes.addVirtualNodeCname, {
    input: (body: CnameValues) => ({ params: { zoneID: zoneId, id: node?.id ?? 0 }, body }),
    invalidates: changes('virtualNodeRecords'),
    success: createdText,
    form: { instance: form, fields: ['value'] },
    onSuccess: onClose,
  });
  return (
    <FormModal<CnameValues>
      open={node !== null}
      title={t('record.addCname')}
      form={form}
      pending={add.isPending}
      onCancel={onClose}
      onSubmit={(values) => add.mutate(values)}
    >
      <Form.Item
        name="value"
        label={t('record.cnameValue')}
        rules={rules('value')}
        required
        extra={t('record.cnameHint')}
      >
        <Input autoFocus placeholder="cdn.example.com" />
      </Form.Item>
    </FormModal>
  );
}
