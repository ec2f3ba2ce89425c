import { type Group, groupRoutes, PORT_TYPES } from '@rampart/contract';
import { Form, Input, Radio, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { useCreateOrUpdate } from '../../../app/use-create-or-update';
import { FormModal } from '../../../components/FormModal';
import { schemaRules } from '../../../forms/zod-rules';

interface GroupValues {
  name: string;
  portType: 7 | 4;
  isBackup: boolean;
  memo: string;
}

const FIELDS = ['name', 'portType', 'isBackup', 'memo'] as const;
const rules = schemaRules(groupRoutes.createGroup.request.body);

interface GroupFormModalProps {
  zoneId: number;
  /** 'new' creates, a group edits it (its port type stays), null closes. */
  group: Group | 'new' | null;
  onClose: () => void;
}

/** Creates or edits a group of a zone: name, port type (7 or 4, fixed once made), backup flag, memo. */
export function GroupFormModal({ zoneId, group, onClose }: GroupFormModalProps) {
  const { t } = useTranslation(['zones', 'common']);
  const [form] = Form.useForm<GroupValues>();
  const params = { zoneID: zoneId };
  const save = useCreateOrUpdate('client', {
    create: groupRoutes.createGroup,
    update: groupRoutes.updateGroup,
    createInput: (body: GroupValues) => ({ params, body }),
    updateInput: ({ portType: _fixed, ...body }) => ({ params, body }),
    invalidates: changes('groups'),
    form: { instance: form, fields: FIELDS },
    onSuccess: onClose,
  });
  const existing = group === 'new' ? null : group;

  return (
    <FormModal<GroupValues>
      open={group !== null}
      title={existing ? t('group.edit') : t('group.create')}
      form={form}
      pending={save.pending}
      onCancel={onClose}
      initialValues={
        existing
          ? { name: existing.name, portType: existing.portType, isBackup: existing.isBackup, memo: existing.memo }
          : { portType: 7, isBackup: false, memo: '' }
      }
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="name" label={t('group.name')} rules={rules('name')} required>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="portType" label={t('group.portType')} required>
        <Radio.Group
          disabled={existing !== null}
          options={PORT_TYPES.map((value) => ({ value, label: t(`common:portTypes.${value}`) }))}
        />
      </Form.Item>
      <Form.Item name="isBackup" label={t('group.isBackup')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="memo" label={t('memo')} rules={rules('memo')}>
        <Input.TextArea rows={2} />
      </Form.Item>
    </FormModal>
  );
}
