import type { SiteModuleType } from '@rampart/contract';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { toastText } from '../../../../app/toast';
import { useCreateOrUpdate } from '../../../../app/use-create-or-update';
import { FormModal } from '../../../../components/FormModal';
import type { FieldNameOf } from '../../../../forms/server-errors';
import { MODULE_DEFAULTS, ModuleFields, moduleBody, moduleValues } from './ModuleFields';
import { type ListedModule, MODULE_ROUTES, moduleInvalidates } from './module-types';

type Values = { name: string } & Record<string, unknown>;

/** A server path (`modules.0.headers.1.name` on create, `headers.1.name` on edit) → the form field. */
const fieldOf: FieldNameOf = (path) => {
  const rest = path[0] === 'modules' ? path.slice(2) : path;
  if (rest.length === 0 || rest[0] === 'id') return undefined;
  return rest.map((part) => (/^\d+$/.test(part) ? Number(part) : part));
};

interface ModuleFormModalProps {
  siteId: number;
  type: SiteModuleType;
  /** 'new' creates, a module edits it, null closes. */
  module: ListedModule | 'new' | null;
  onClose: () => void;
}

/** Creates or edits one module of a type: its name and the type's settings. */
export function ModuleFormModal({ siteId, type, module, onClose }: ModuleFormModalProps) {
  const { t } = useTranslation('modules');
  const [form] = Form.useForm<Values>();
  const routes = MODULE_ROUTES[type];
  const params = { siteId };
  const save = useCreateOrUpdate('user', {
    create: routes.create,
    update: routes.update,
    createInput: (values: Values) => ({ params, body: { modules: [moduleBody(type, values)] } as never }),
    updateInput: (values) => ({ params, body: moduleBody(type, values) as never }),
    invalidates: moduleInvalidates(type),
    form: { instance: form, fields: fieldOf },
    success: { update: () => toastText(type === 'customHeader' ? 'headerSetSuccess' : 'setSuccess') },
    onSuccess: onClose,
  });
  const existing = module === 'new' ? null : module;

  return (
    <FormModal<Values>
      open={module !== null}
      title={existing ? t('editTitle', { name: existing.name }) : t('createTitle', { type: t(`types.${type}`) })}
      form={form}
      width={760}
      pending={save.pending}
      onCancel={onClose}
      initialValues={
        existing ? { name: existing.name, ...moduleValues(type, existing) } : { name: '', ...MODULE_DEFAULTS[type] }
      }
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="name" label={t('name')} required>
        <Input autoFocus />
      </Form.Item>
      <ModuleFields type={type} />
    </FormModal>
  );
}
