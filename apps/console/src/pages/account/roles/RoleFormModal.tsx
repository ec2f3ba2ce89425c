import { type Role, roleRoutes, type Tier } from '@rampart/contract';
import { Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { toastText } from '../../../app/toast';
import { useCreateOrUpdate } from '../../../app/use-create-or-update';
import { FormModal } from '../../../components/FormModal';
import { schemaRules } from '../../../forms/zod-rules';
import { PermissionPicker } from './PermissionPicker';

interface RoleValues {
  name: string;
  remark?: string;
  permissions?: string[];
}

const rules = schemaRules(roleRoutes.createRole.request.body);
const FIELDS = ['name', 'remark', 'permissions'];

function bodyOf(values: RoleValues) {
  return { name: values.name, remark: values.remark ?? '', permissions: values.permissions ?? [] };
}

/** Creates a role ('new') or edits one (its holders' keys change with it at once); null closes. */
export function RoleFormModal({ tier, role, onClose }: { tier: Tier; role: Role | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation('roles');
  const [form] = Form.useForm<RoleValues>();
  const existing = role === 'new' ? null : role;
  const save = useCreateOrUpdate(tier, {
    create: roleRoutes.createRole,
    update: roleRoutes.updateRole,
    createInput: (values: RoleValues) => ({ params: { auth: tier }, body: bodyOf(values) }),
    updateInput: ({ id, ...values }) => ({ params: { auth: tier, roleId: id }, body: bodyOf(values) }),
    invalidates: changes('roles'),
    form: { instance: form, fields: FIELDS },
    success: { create: () => toastText('createRoleSuccess'), update: () => toastText('updateRoleSuccess') },
    onSuccess: onClose,
  });
  return (
    <FormModal<RoleValues>
      open={role !== null}
      title={existing ? t('editTitle', { name: existing.name }) : t('createTitle')}
      form={form}
      width={720}
      pending={save.pending}
      onCancel={onClose}
      initialValues={
        existing
          ? { name: existing.name, remark: existing.remark, permissions: existing.permissions }
          : { name: '', remark: '', permissions: [] }
      }
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="name" label={t('name')} rules={rules('name')} required>
        <Input autoFocus autoComplete="off" />
      </Form.Item>
      <Form.Item name="remark" label={t('remark')} rules={rules('remark')}>
        <Input />
      </Form.Item>
      <Typography.Paragraph type="secondary">{t('permissionsHint')}</Typography.Paragraph>
      <Form.Item name="permissions" label={t('permissions')} rules={rules('permissions')}>
        <PermissionPicker tier={tier} />
      </Form.Item>
    </FormModal>
  );
}
