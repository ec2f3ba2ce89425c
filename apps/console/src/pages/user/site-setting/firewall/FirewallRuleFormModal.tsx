import {
  BLACKLIST_BLOCK_TYPES,
  FIREWALL_ACTION_LABELS,
  FIREWALL_METHODS,
  FIREWALL_URL_MAX,
  MAX_IPS,
} from '@rampart/contract';
import { Checkbox, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { localized } from '../../../../app/toast';
import { useCreateOrUpdate } from '../../../../app/use-create-or-update';
import { FormModal } from '../../../../components/FormModal';
import { FIREWALL_KINDS, type FirewallKindKey, type FirewallRule } from './firewall-kinds';
import {
  type FirewallRuleValues,
  firewallFieldOf,
  firewallRuleRules,
  ipsRules,
  NEW_RULE,
  ruleBody,
  ruleValues,
} from './firewall-rule-form';

/** Literals of the URL hint, the same in every language. */
const URL_HINT = {
  form: 'scheme://host[:port]/path?query',
  all: '.*',
  host: 'www.example.com',
  regex: 'https?:\\/\\/www.example.com(.*)',
};

interface FirewallRuleFormModalProps {
  siteId: number;
  kind: FirewallKindKey;
  /** 'new' adds a rule, a rule edits it, null closes. */
  rule: FirewallRule | 'new' | null;
  onClose: () => void;
}

/** Adds a rule of the kind or replaces one: its IPs, the URLs and methods it covers, its mode, a memo. */
export function FirewallRuleFormModal({ siteId, kind: key, rule, onClose }: FirewallRuleFormModalProps) {
  const { t } = useTranslation('firewall');
  const kind = FIREWALL_KINDS[key];
  const [form] = Form.useForm<FirewallRuleValues>();
  const rules = firewallRuleRules(kind);
  const fields = firewallFieldOf(() => form.getFieldValue('ips'));
  const params = { siteId };
  const save = useCreateOrUpdate('user', {
    create: kind.add,
    update: kind.update,
    createInput: (values: FirewallRuleValues) => ({ params, body: { data: [ruleBody(kind, values)] } }),
    updateInput: ({ id, ...values }) => ({ params, body: { ...ruleBody(kind, values), id } }),
    invalidates: changes(kind.resource),
    form: { instance: form, fields },
    onSuccess: onClose,
  });
  const existing = rule === 'new' ? null : rule;

  return (
    <FormModal<FirewallRuleValues>
      open={rule !== null}
      title={existing ? t(`form.editTitle.${key}`) : t(`form.addTitle.${key}`)}
      form={form}
      width={640}
      pending={save.pending}
      onCancel={onClose}
      initialValues={existing ? ruleValues(existing) : NEW_RULE}
      onSubmit={() => save.submit(form.getFieldsValue(true) as FirewallRuleValues, existing)}
    >
      <Form.Item
        name="ips"
        label={t('ips')}
        extra={t('form.ipsHint', { max: MAX_IPS })}
        rules={ipsRules(kind)}
        required
      >
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} spellCheck={false} />
      </Form.Item>
      <Form.Item name="url" label={t('url')} extra={t('form.urlHint', URL_HINT)} rules={rules('url')} required>
        <Input placeholder={URL_HINT.all} maxLength={FIREWALL_URL_MAX} spellCheck={false} />
      </Form.Item>
      <Form.Item name="methods" label={t('methods')} rules={rules('methods')} required>
        <Checkbox.Group options={FIREWALL_METHODS.map((method) => ({ value: method, label: method.toUpperCase() }))} />
      </Form.Item>
      {kind.blockType && (
        <Form.Item name="blockType" label={t('blockType')} extra={t('form.blockTypeHint')} rules={rules('blockType')}>
          <Select
            aria-label={t('blockType')}
            options={BLACKLIST_BLOCK_TYPES.map((value) => ({ value, label: localized(FIREWALL_ACTION_LABELS[value]) }))}
          />
        </Form.Item>
      )}
      <Form.Item name="memo" label={t('memo')} rules={rules('memo')}>
        <Input />
      </Form.Item>
    </FormModal>
  );
}
