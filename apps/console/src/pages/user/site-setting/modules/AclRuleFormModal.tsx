import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  ACL_ACTIONS,
  ACL_FIELDS,
  ACL_FREQUENCY_OPERATORS,
  ACL_METHODS,
  ACL_STRING_FIELDS,
  ACL_STRING_OPERATORS,
  type AclField,
  aclSetValuesSchema,
  type LuaAclRule,
  luaAclRoutes,
} from '@rampart/contract';
import { Button, Card, Checkbox, Form, Input, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../../components/FormModal';
import { entryListRules } from '../../../../forms/line-rules';
import { NumberInput } from '../../../../forms/NumberInput';
import type { FieldNameOf } from '../../../../forms/server-errors';
import { useFieldValue } from '../../../../forms/use-field-value';
import { numberFieldRules } from '../../../../forms/zod-rules';
import { i18n } from '../../../../i18n/i18n';
import { type ModuleItemFormProps, useModuleItemForm } from './use-module-items';

type Values = Omit<LuaAclRule, 'id' | 'moduleID' | 'createdAt' | 'updatedAt'>;
type Condition = Values['conditions'][number];

const isString = (f: AclField) => (ACL_STRING_FIELDS as readonly string[]).includes(f);

/** The operators a condition on `field` may use, as the contract allows them. */
export function operatorsOf(field: AclField): readonly Condition['operator'][] {
  if (isString(field)) return ACL_STRING_OPERATORS;
  if (field === 'frequency') return ACL_FREQUENCY_OPERATORS;
  return ['in'];
}

/** Every bad address or country of a condition named with its place (the contract's list of that field). */
const VALUES_RULES = {
  ip: entryListRules(aclSetValuesSchema('ip'), (position, value, message) =>
    i18n.t('modules:entryError', { position, value, message }),
  ),
  country: entryListRules(aclSetValuesSchema('country'), (position, value, message) =>
    i18n.t('modules:entryError', { position, value, message }),
  ),
};

const NEW_CONDITION: Condition = {
  field: 'uriPath',
  operator: 'prefix',
  negate: false,
  name: '',
  value: '',
  values: [],
  count: 0,
  seconds: 60,
};
const NEW_RULE: Values = {
  name: '',
  priority: 0,
  enabled: true,
  action: 'deny',
  redirectUrl: '',
  conditions: [NEW_CONDITION],
};

/** A server path (`conditions.0.value`) → the form field. */
const fieldOf: FieldNameOf = (path) => {
  if (path.length === 0 || path[0] === 'id') return undefined;
  return path.map((part) => (/^\d+$/.test(part) ? Number(part) : part));
};

/** The inputs of one condition: which depend on its field. */
function ConditionFields({ index, onRemove }: { index: number; onRemove?: () => void }) {
  const { t } = useTranslation('modules');
  const form = Form.useFormInstance<Values>();
  const field: AclField = useFieldValue<AclField>(['conditions', index, 'field']) ?? 'uriPath';
  const row = (n: 'field' | 'operator' | 'value' | 'values' | 'headerName' | 'count' | 'seconds' | 'remove') =>
    `${t(`acl.condition.${n}`)} ${index + 1}`;
  return (
    <Card size="small" style={{ marginBottom: 8 }}>
      <Space align="start" wrap>
        <Form.Item name={[index, 'field']}>
          <Select
            style={{ width: 170 }}
            aria-label={row('field')}
            options={ACL_FIELDS.map((f) => ({ value: f, label: t(`acl.fields.${f}`) }))}
            onChange={(f: AclField) =>
              form.setFieldValue(['conditions', index], { ...NEW_CONDITION, field: f, operator: operatorsOf(f)[0] })
            }
          />
        </Form.Item>
        {field === 'header' && (
          <Form.Item name={[index, 'name']}>
            <Input placeholder={t('acl.condition.headerName')} aria-label={row('headerName')} />
          </Form.Item>
        )}
        <Form.Item name={[index, 'operator']}>
          <Select
            style={{ width: 150 }}
            aria-label={row('operator')}
            options={operatorsOf(field).map((o) => ({ value: o, label: t(`acl.operators.${o}`) }))}
          />
        </Form.Item>
        {isString(field) && (
          <Form.Item name={[index, 'value']}>
            <Input style={{ width: 240 }} placeholder={t('acl.condition.value')} aria-label={row('value')} />
          </Form.Item>
        )}
        {field === 'method' && (
          <Form.Item name={[index, 'values']}>
            <Checkbox.Group options={ACL_METHODS.map((m) => ({ value: m, label: m }))} />
          </Form.Item>
        )}
        {(field === 'ip' || field === 'country') && (
          <Form.Item name={[index, 'values']} rules={VALUES_RULES[field]}>
            <Select
              mode="tags"
              open={false}
              suffixIcon={null}
              style={{ width: 260 }}
              placeholder={t(field === 'ip' ? 'acl.condition.ipHint' : 'acl.condition.countryHint')}
              aria-label={row('values')}
            />
          </Form.Item>
        )}
        {field === 'frequency' && (
          <>
            <Form.Item
              name={[index, 'count']}
              rules={numberFieldRules(luaAclRoutes.addRule.request.body, 'conditions.count')}
            >
              <NumberInput addonAfter={t('acl.condition.times')} aria-label={row('count')} />
            </Form.Item>
            <Form.Item
              name={[index, 'seconds']}
              rules={numberFieldRules(luaAclRoutes.addRule.request.body, 'conditions.seconds')}
            >
              <NumberInput addonAfter={t('acl.condition.seconds')} aria-label={row('seconds')} />
            </Form.Item>
          </>
        )}
        {field !== 'frequency' && (
          <Form.Item name={[index, 'negate']} valuePropName="checked">
            <Checkbox>{t('acl.condition.negate')}</Checkbox>
          </Form.Item>
        )}
        {onRemove && <Button icon={<DeleteOutlined />} aria-label={row('remove')} onClick={onRemove} />}
      </Space>
    </Card>
  );
}

/** Adds or edits one Lua ACL rule: name, priority, enabled, conditions (all must hold), action. */
export function AclRuleFormModal(props: ModuleItemFormProps<LuaAclRule>) {
  const { t } = useTranslation('modules');
  const { form, save, existing, initial } = useModuleItemForm(props, {
    type: 'luaAcl',
    create: luaAclRoutes.addRule,
    update: luaAclRoutes.updateRule,
    createBody: (values: Values) => values,
    fieldOf,
    blank: NEW_RULE,
  });
  // The opening action until the watch has read the form (see forms/use-field-value.ts).
  const action = Form.useWatch('action', form) ?? initial.action;

  return (
    <FormModal<Values>
      open={props.item !== null}
      title={existing ? t('acl.editRule', { name: existing.name }) : t('acl.addRule')}
      form={form}
      width={900}
      pending={save.pending}
      onCancel={props.onClose}
      initialValues={initial}
      onSubmit={(values) =>
        save.submit({ ...values, redirectUrl: values.action === 'redirect' ? values.redirectUrl : '' }, existing)
      }
    >
      <Space align="start" wrap>
        <Form.Item name="name" label={t('acl.name')} required>
          <Input autoFocus style={{ width: 260 }} />
        </Form.Item>
        <Form.Item
          name="priority"
          label={t('acl.priority')}
          tooltip={t('acl.priorityHint')}
          rules={numberFieldRules(luaAclRoutes.addRule.request.body, 'priority')}
        >
          <NumberInput />
        </Form.Item>
        <Form.Item name="enabled" label={t('acl.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Space>
      <Form.Item label={t('acl.conditions')} tooltip={t('acl.conditionsHint')} required>
        <Form.List name="conditions">
          {(rows, { add, remove }) => (
            <>
              {rows.map((row) => (
                <ConditionFields
                  key={row.key}
                  index={row.name}
                  onRemove={rows.length > 1 ? () => remove(row.name) : undefined}
                />
              ))}
              <Button icon={<PlusOutlined />} onClick={() => add(NEW_CONDITION)} disabled={rows.length >= 10}>
                {t('acl.addCondition')}
              </Button>
            </>
          )}
        </Form.List>
      </Form.Item>
      <Space align="start" wrap>
        <Form.Item name="action" label={t('acl.action')} required>
          <Select
            style={{ width: 200 }}
            options={ACL_ACTIONS.map((a) => ({ value: a, label: t(`acl.actions.${a}`) }))}
          />
        </Form.Item>
        {action === 'redirect' && (
          <Form.Item name="redirectUrl" label={t('acl.redirectUrl')} required>
            <Input style={{ width: 360 }} placeholder="https://www.example.com/" />
          </Form.Item>
        )}
      </Space>
    </FormModal>
  );
}
