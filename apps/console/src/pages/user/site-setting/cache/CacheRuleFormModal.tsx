import {
  CACHE_RULE_VALUES_MAX,
  CACHE_SCOPES,
  CACHE_TTL_SECONDS,
  type CacheRule,
  FILE_TYPE_GROUP_KEYS,
  siteCacheRoutes,
} from '@rampart/contract';
import { Form, Input, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { toastText } from '../../../../app/toast';
import { useCreateOrUpdate } from '../../../../app/use-create-or-update';
import { FormModal } from '../../../../components/FormModal';
import { NumberInput } from '../../../../forms/NumberInput';
import {
  addFieldOf,
  type CacheRuleValues,
  fileTypeLabel,
  NEW_RULE,
  RULE_FIELDS,
  ruleBody,
  ruleRules,
  ruleValues,
  valuesRules,
} from './cache-rule-form';

const TOKEN_SEPARATORS = [' ', ',', '\n'];

interface CacheRuleFormModalProps {
  siteId: number;
  /** 'new' adds a rule, a rule edits it, null closes. */
  rule: CacheRule | 'new' | null;
  onClose: () => void;
}

/** Adds a cache rule or replaces one: what it matches, how long and how it caches, its priority. */
export function CacheRuleFormModal({ siteId, rule, onClose }: CacheRuleFormModalProps) {
  const { t } = useTranslation('cache');
  const [form] = Form.useForm<CacheRuleValues>();
  const scope = Form.useWatch('scope', form) ?? NEW_RULE.scope;
  const bypass = Form.useWatch('bypass', form) ?? false;
  const params = { siteId };
  const save = useCreateOrUpdate('user', {
    create: siteCacheRoutes.addCacheRules,
    update: siteCacheRoutes.updateCacheRule,
    createInput: (values: CacheRuleValues) => ({ params, body: { data: [ruleBody(values)] } }),
    updateInput: ({ id, ...values }) => ({ params: { siteId, ruleId: id }, body: ruleBody(values) }),
    invalidates: changes('siteCacheRules'),
    form: { instance: form, fields: RULE_FIELDS },
    createFields: addFieldOf,
    success: { create: () => toastText('cacheRulesAddedSuccess') },
    onSuccess: onClose,
  });
  const existing = rule === 'new' ? null : rule;

  return (
    <FormModal<CacheRuleValues>
      open={rule !== null}
      title={existing ? t('form.editTitle') : t('form.addTitle')}
      form={form}
      width={640}
      pending={save.pending}
      onCancel={onClose}
      initialValues={existing ? ruleValues(existing) : NEW_RULE}
      // The whole form is read back: a field hidden for the scope still holds its value.
      onSubmit={() => save.submit(form.getFieldsValue(true) as CacheRuleValues, existing)}
    >
      <Form.Item name="scope" label={t('scope')} rules={ruleRules('scope')}>
        <Select
          aria-label={t('scope')}
          options={CACHE_SCOPES.map((value) => ({ value, label: t(`scopes.${value}`) }))}
          // Values of one scope mean nothing in another (a path is no suffix).
          onChange={() => form.setFieldValue('values', [])}
        />
      </Form.Item>
      {scope !== 'all' && (
        <Form.Item
          name="values"
          label={t('values')}
          extra={t(`form.valuesHint.${scope}`)}
          rules={valuesRules}
          dependencies={['scope']}
          required
        >
          {scope === 'fileType' ? (
            <Select
              mode="multiple"
              aria-label={t('values')}
              options={FILE_TYPE_GROUP_KEYS.map((value) => ({ value, label: fileTypeLabel(value) }))}
            />
          ) : (
            <Select
              mode="tags"
              aria-label={t('values')}
              open={false}
              suffixIcon={null}
              maxCount={CACHE_RULE_VALUES_MAX}
              tokenSeparators={TOKEN_SEPARATORS}
            />
          )}
        </Form.Item>
      )}
      <Form.Item name="bypass" label={t('bypass')} extra={t('form.bypassHint')} valuePropName="checked">
        <Switch aria-label={t('bypass')} />
      </Form.Item>
      <Form.Item name="ttl" label={t('ttl')} rules={ruleRules('ttl')}>
        <Select
          aria-label={t('ttl')}
          disabled={bypass}
          // Twelve presets: all of them in the list, none left to a virtual scroll.
          virtual={false}
          options={CACHE_TTL_SECONDS.map((value) => ({ value, label: t(`ttls.${value}`) }))}
        />
      </Form.Item>
      <Form.Item name="respectOrigin" label={t('respectOrigin')} extra={t('form.respectOriginHint')}>
        <Radio.Group
          disabled={bypass}
          options={[
            { value: true, label: t('respected') },
            { value: false, label: t('ignored') },
          ]}
        />
      </Form.Item>
      <Form.Item name="queryString" label={t('queryString')}>
        <Radio.Group
          disabled={bypass}
          options={[
            { value: 'include', label: t('queryStrings.include') },
            { value: 'ignore', label: t('queryStrings.ignore') },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="priority"
        label={t('priority')}
        extra={t('form.priorityHint')}
        rules={ruleRules('priority')}
        required
      >
        <NumberInput aria-label={t('priority')} />
      </Form.Item>
      <Form.Item name="memo" label={t('memo')} rules={ruleRules('memo')}>
        <Input />
      </Form.Item>
    </FormModal>
  );
}
