import { type AuthGroup, authGroupRoutes } from '@rampart/contract';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { useCreateOrUpdate } from '../../../../app/use-create-or-update';
import { FormModal } from '../../../../components/FormModal';

type Values = { name: string; remark: string };

/** Adds or renames an auth group. */
export function AuthGroupFormModal(props: { siteId: number; group: AuthGroup | 'new' | null; onClose: () => void }) {
  const { siteId, group, onClose } = props;
  const { t } = useTranslation('authGroups');
  const [form] = Form.useForm<Values>();
  const params = { siteId };
  const save = useCreateOrUpdate('user', {
    create: authGroupRoutes.createGroup,
    update: authGroupRoutes.updateGroup,
    createInput: (values: Values) => ({ params, body: values }),
    updateInput: (values) => ({ params, body: values }),
    invalidates: changes('authGroups'),
    form: { instance: form, fields: ['name', 'remark'] },
    onSuccess: onClose,
  });
  const existing = group === 'new' ? null : group;
  return (
    <FormModal<Values>
      open={group !== null}
      title={existing ? t('group.edit', { name: existing.name }) : t('group.add')}
      form={form}
      pending={save.pending}
      onCancel={onClose}
      initialValues={existing ? { name: existing.name, remark: existing.remark } : { name: '', remark: '' }}
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="name" label={t('group.name')} required>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="remark" label={t('group.remark')}>
        <Input />
      </Form.Item>
    </FormModal>
  );
}
