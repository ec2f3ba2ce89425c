import { type AnyRoute, PORT_TYPES, type RouteInput } from '@rampart/contract';
import { Form, Input, Radio, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes, type Resource } from '../../../app/resource-changes';
import { useCreateOrUpdate } from '../../../app/use-create-or-update';
import { FormModal } from '../../../components/FormModal';
import { schemaRules } from '../../../forms/zod-rules';

/** The values of a zone's group or virtual node; `isBackup` only where the part has it. */
interface PortTypedValues {
  name: string;
  portType: 7 | 4;
  isBackup?: boolean;
  memo: string;
}

interface PortTypedItem {
  id: number;
  name: string;
  portType: 7 | 4;
  isBackup?: boolean;
  memo: string;
}

interface PortTypedFormModalProps<C extends AnyRoute, U extends AnyRoute> {
  zoneId: number;
  /** 'new' creates, an item edits it (its port type stays), null closes. */
  item: PortTypedItem | 'new' | null;
  onClose: () => void;
  create: C;
  update: U;
  resource: Resource;
  /** The dialog's titles and the fields' labels. */
  text: { create: string; edit: string; name: string; portType: string; memo: string };
  /** The backup switch's label, where the part has the flag. */
  backupLabel?: string;
}

/**
 * Creates or edits a part of a zone with a name, a port type (7 or 4, fixed once made) and a memo:
 * a group (which also has a backup flag) or a virtual node. The fields' rules are the create call's.
 */
export function PortTypedFormModal<C extends AnyRoute, U extends AnyRoute>({
  zoneId,
  item,
  onClose,
  create,
  update,
  resource,
  text,
  backupLabel,
}: PortTypedFormModalProps<C, U>) {
  const { t } = useTranslation('common');
  const [form] = Form.useForm<PortTypedValues>();
  const params = { zoneID: zoneId };
  const backup = backupLabel !== undefined;
  const rules = schemaRules(create.request.body as Parameters<typeof schemaRules>[0]);
  const save = useCreateOrUpdate('client', {
    create,
    update,
    createInput: (body: PortTypedValues) => ({ params, body }) as unknown as RouteInput<C>,
    updateInput: ({ portType: _fixed, ...body }) => ({ params, body }) as unknown as RouteInput<U>,
    invalidates: changes(resource),
    form: { instance: form, fields: backup ? ['name', 'portType', 'isBackup', 'memo'] : ['name', 'portType', 'memo'] },
    onSuccess: onClose,
  });
  const existing = item === 'new' ? null : item;
  const initial: Partial<PortTypedValues> = existing
    ? { name: existing.name, portType: existing.portType, memo: existing.memo }
    : { portType: 7, memo: '' };
  if (backup) initial.isBackup = existing?.isBackup ?? false;

  return (
    <FormModal<PortTypedValues>
      open={item !== null}
      title={existing ? text.edit : text.create}
      form={form}
      pending={save.pending}
      onCancel={onClose}
      initialValues={initial}
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="name" label={text.name} rules={rules('name')} required>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="portType" label={text.portType} required>
        <Radio.Group
          disabled={existing !== null}
          options={PORT_TYPES.map((value) => ({ value, label: t(`portTypes.${value}`) }))}
        />
      </Form.Item>
      {backup && (
        <Form.Item name="isBackup" label={backupLabel} valuePropName="checked">
          <Switch />
        </Form.Item>
      )}
      <Form.Item name="memo" label={text.memo} rules={rules('memo')}>
        <Input.TextArea rows={2} />
      </Form.Item>
    </FormModal>
  );
}
