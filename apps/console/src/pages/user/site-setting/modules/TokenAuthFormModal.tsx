import {
  TOKEN_AUTH_ACTIONS,
  TOKEN_AUTH_SCOPES,
  type TokenAuth,
  tokenAuthInputSchema,
  tokenAuthRoutes,
} from '@rampart/contract';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../../components/FormModal';
import { NumberInput } from '../../../../forms/NumberInput';
import { valueRules } from '../../../../forms/zod-rules';

const expireRules = valueRules(tokenAuthInputSchema.in.shape.expire);

import type { FieldNameOf } from '../../../../forms/server-errors';
import { type ModuleItemFormProps, useModuleItemForm } from './use-module-items';

type Values = Pick<TokenAuth, 'scope' | 'value' | 'key' | 'expire' | 'action'>;

/** The contract's defaults (routes/site-module-token-auth.ts). */
const NEW_AUTH: Values = { scope: 'all', value: '', key: '', expire: 600, action: 'deny' };

/** A server path (`items.0.key` on add, `key` on edit) → the form field. */
const fieldOf: FieldNameOf = (path) => {
  const rest = path[0] === 'items' ? path.slice(2) : path;
  return rest.length === 1 && rest[0] !== 'id' ? rest[0] : undefined;
};

/** Adds or edits one auth of a token-auth module: scope, key, expiry, how a refused request is refused. */
export function TokenAuthFormModal(props: ModuleItemFormProps<TokenAuth>) {
  const { t } = useTranslation('modules');
  const { form, save, existing, initial } = useModuleItemForm(props, {
    type: 'tokenAuth',
    create: tokenAuthRoutes.addRules,
    update: tokenAuthRoutes.updateRule,
    createBody: (values: Values) => ({ items: [values] }),
    fieldOf,
    blank: NEW_AUTH,
  });
  // The opening scope until the watch has read the form (see forms/use-field-value.ts).
  const scope = Form.useWatch('scope', form) ?? initial.scope;

  return (
    <FormModal<Values>
      open={props.item !== null}
      title={existing ? t('token.edit') : t('token.add')}
      form={form}
      width={640}
      pending={save.pending}
      onCancel={props.onClose}
      initialValues={initial}
      onSubmit={(values) => save.submit({ ...values, value: values.scope === 'all' ? '' : values.value }, existing)}
    >
      <Form.Item name="scope" label={t('token.scope')} required>
        <Select options={TOKEN_AUTH_SCOPES.map((s) => ({ value: s, label: t(`token.scopes.${s}`) }))} />
      </Form.Item>
      {scope !== 'all' && (
        <Form.Item name="value" label={t(`token.values.${scope}`)} tooltip={t(`token.hints.${scope}`)} required>
          <Input placeholder={t(`token.placeholders.${scope}`)} />
        </Form.Item>
      )}
      <Form.Item name="key" label={t('token.key')} tooltip={t('token.keyHint')} required>
        <Input.Password autoComplete="off" placeholder="abc123" />
      </Form.Item>
      <Form.Item
        name="expire"
        label={t('token.expireSeconds')}
        tooltip={t('token.expireHint')}
        rules={expireRules}
        required
      >
        <NumberInput />
      </Form.Item>
      <Form.Item name="action" label={t('token.action')} required>
        <Select options={TOKEN_AUTH_ACTIONS.map((a) => ({ value: a, label: t(`token.actions.${a}`) }))} />
      </Form.Item>
    </FormModal>
  );
}
