import { AUTH_MATCHES, type AuthRule, authGroupRoutes, listDomains } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { routeQuery } from '../../../../app/route-query';
import { useCreateOrUpdate } from '../../../../app/use-create-or-update';
import { FormModal } from '../../../../components/FormModal';
import { NumberInput } from '../../../../forms/NumberInput';
import { numberFieldRules } from '../../../../forms/zod-rules';

type Values = Pick<AuthRule, 'name' | 'groupID' | 'match' | 'path' | 'domainIDs' | 'priority' | 'enabled'>;
const NEW_RULE: Values = {
  name: '',
  groupID: 0,
  match: 'prefix',
  path: '/',
  domainIDs: [],
  priority: 0,
  enabled: true,
};

/** Adds or edits an auth rule: the path it protects, the group whose credentials it asks for, the domains. */
export function AuthRuleFormModal(props: { siteId: number; rule: AuthRule | 'new' | null; onClose: () => void }) {
  const { siteId, rule, onClose } = props;
  const { t } = useTranslation('authGroups');
  const [form] = Form.useForm<Values>();
  const params = { siteId };
  const open = rule !== null;
  const groups = useQuery({ ...routeQuery('user', authGroupRoutes.metaGroups, { params, query: {} }), enabled: open });
  const domains = useQuery({
    ...routeQuery('user', listDomains, { params, query: { page: 1, pageSize: 100 } }),
    enabled: open,
  });
  const save = useCreateOrUpdate('user', {
    create: authGroupRoutes.createRule,
    update: authGroupRoutes.updateRule,
    createInput: (values: Values) => ({ params, body: values }),
    updateInput: (values) => ({ params, body: values }),
    invalidates: changes('authRules'),
    form: { instance: form, fields: ['name', 'groupID', 'match', 'path', 'domainIDs', 'priority', 'enabled'] },
    onSuccess: onClose,
  });
  const existing = rule === 'new' ? null : rule;
  const initial: Values = existing
    ? {
        name: existing.name,
        groupID: existing.groupID,
        match: existing.match,
        path: existing.path,
        domainIDs: existing.domainIDs,
        priority: existing.priority,
        enabled: existing.enabled,
      }
    : NEW_RULE;
  return (
    <FormModal<Values>
      open={open}
      title={existing ? t('rule.edit', { name: existing.name }) : t('rule.add')}
      form={form}
      width={720}
      pending={save.pending}
      onCancel={onClose}
      initialValues={initial}
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="name" label={t('rule.name')} required>
        <Input autoFocus />
      </Form.Item>
      <Space align="start" wrap>
        <Form.Item name="match" label={t('rule.match')} required>
          <Select
            style={{ width: 140 }}
            options={AUTH_MATCHES.map((m) => ({ value: m, label: t(`rule.matches.${m}`) }))}
          />
        </Form.Item>
        <Form.Item name="path" label={t('rule.path')} tooltip={t('rule.pathHint')} required>
          <Input style={{ width: 360 }} />
        </Form.Item>
      </Space>
      <Form.Item name="groupID" label={t('rule.group')} required>
        <Select
          aria-label={t('rule.group')}
          options={(groups.data?.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
        />
      </Form.Item>
      <Form.Item name="domainIDs" label={t('rule.domains')} tooltip={t('rule.domainsHint')}>
        <Select
          mode="multiple"
          allowClear
          placeholder={t('rule.allDomains')}
          options={(domains.data?.data ?? []).map((d: { id: number; name: string }) => ({
            value: d.id,
            label: d.name,
          }))}
        />
      </Form.Item>
      <Space align="start" wrap>
        <Form.Item
          name="priority"
          label={t('rule.priority')}
          tooltip={t('rule.priorityHint')}
          rules={numberFieldRules(authGroupRoutes.createRule.request.body, 'priority')}
        >
          <NumberInput />
        </Form.Item>
        <Form.Item name="enabled" label={t('rule.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Space>
    </FormModal>
  );
}
