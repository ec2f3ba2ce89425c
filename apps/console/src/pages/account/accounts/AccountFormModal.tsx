import {
  ACCOUNT_LINK_DELIVERIES,
  ACCOUNT_STATUS_LABELS,
  ACCOUNT_STATUSES,
  accountRoutes,
  type ManagedAccount,
  type Tier,
} from '@rampart/contract';
import { Form, Input, Radio, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { localized, toastText } from '../../../app/toast';
import { useCreateOrUpdate } from '../../../app/use-create-or-update';
import { FormModal } from '../../../components/FormModal';
import { NumberInput } from '../../../forms/NumberInput';
import { schemaRules } from '../../../forms/zod-rules';
import { authToast } from './account-texts';

interface AccountValues {
  account: string;
  name: string;
  email: string;
  status: ManagedAccount['status'];
  maxLogExportTimes?: number;
  zoneLimit?: number;
  delivery?: (typeof ACCOUNT_LINK_DELIVERIES)[number];
}

const createRules = schemaRules(accountRoutes.createAccount.request.body, { auth: 'user' });
const updateRules = schemaRules(accountRoutes.updateAccount.request.body, { id: 1 });
const FIELDS = ['account', 'name', 'email', 'status', 'maxLogExportTimes', 'zoneLimit', 'delivery'];

/**
 * Creates an account of `kind` (it is mailed a link to create its password, or the link is shown
 * to copy: `onLink`) or edits one: name, e-mail, status and, for customer accounts, the daily log
 * export limit.
 */
export function AccountFormModal({
  tier,
  kind,
  account,
  onClose,
  onLink,
}: {
  /** The console. */
  tier: Tier;
  /** The tier of the account created (the tab). */
  kind: Tier;
  account: ManagedAccount | 'new' | null;
  onClose: () => void;
  /** A new account's create-password link, when it was asked for instead of the mail. */
  onLink: (link: string) => void;
}) {
  const { t } = useTranslation(['accounts', 'common']);
  const [form] = Form.useForm<AccountValues>();
  const existing = account === 'new' ? null : account;
  const save = useCreateOrUpdate(tier, {
    create: accountRoutes.createAccount,
    update: accountRoutes.updateAccount,
    createInput: (values: AccountValues) => ({
      params: { auth: tier },
      body: {
        auth: kind,
        account: values.account,
        name: values.name,
        email: values.email,
        ...(values.maxLogExportTimes === undefined ? {} : { maxLogExportTimes: values.maxLogExportTimes }),
        ...(values.zoneLimit === undefined ? {} : { zoneLimit: values.zoneLimit }),
        delivery: values.delivery ?? 'mail',
      },
    }),
    updateInput: ({ id, ...values }) => ({
      params: { auth: tier },
      body: {
        id,
        name: values.name,
        email: values.email,
        status: values.status,
        ...(values.maxLogExportTimes === undefined ? {} : { maxLogExportTimes: values.maxLogExportTimes }),
        ...(values.zoneLimit === undefined ? {} : { zoneLimit: values.zoneLimit }),
      },
    }),
    invalidates: changes('accounts'),
    form: { instance: form, fields: FIELDS },
    success: { create: () => authToast('createAuthSuccess', kind), update: () => toastText('editAccountSuccess') },
    onSuccess: onClose,
    onCreated: (reply) => {
      if (reply.data.createPasswordLink) onLink(reply.data.createPasswordLink);
    },
  });
  const rules = existing ? updateRules : createRules;
  const accountTier = existing?.auth ?? kind;
  // The admin sets an operator's zone limit (an operator is the top client account).
  const operator = tier === 'admin' && accountTier === 'client' && (existing === null || existing.isRoot);

  return (
    <FormModal<AccountValues>
      open={account !== null}
      title={existing ? t('edit') : t('create')}
      form={form}
      pending={save.pending}
      onCancel={onClose}
      initialValues={
        existing
          ? {
              account: existing.account,
              name: existing.name,
              email: existing.email,
              status: existing.status,
              maxLogExportTimes: existing.maxLogExportTimes,
              zoneLimit: existing.zoneLimit,
            }
          : operator
            ? { zoneLimit: 0, delivery: 'mail' }
            : { delivery: 'mail' }
      }
      onSubmit={(values) => save.submit(values, existing)}
    >
      {!existing && <Typography.Paragraph type="secondary">{t('createHint')}</Typography.Paragraph>}
      {!existing && (
        <Form.Item name="delivery" label={t('deliveryLabel')}>
          <Radio.Group
            aria-label={t('deliveryLabel')}
            options={ACCOUNT_LINK_DELIVERIES.map((value) => ({ value, label: t(`delivery_${value}`) }))}
          />
        </Form.Item>
      )}
      <Form.Item name="account" label={t('account')} rules={existing ? [] : rules('account')} required={!existing}>
        <Input disabled={existing !== null} autoComplete="off" />
      </Form.Item>
      <Form.Item name="name" label={t('name')} rules={rules('name')} required>
        <Input />
      </Form.Item>
      <Form.Item name="email" label={t('email')} rules={rules('email')} required>
        <Input autoComplete="off" />
      </Form.Item>
      {existing && (
        <Form.Item name="status" label={t('status')}>
          <Select
            aria-label={t('status')}
            options={ACCOUNT_STATUSES.map((status) => ({
              value: status,
              label: localized(ACCOUNT_STATUS_LABELS[status]),
            }))}
          />
        </Form.Item>
      )}
      {accountTier === 'user' && (
        <Form.Item name="maxLogExportTimes" label={t('maxLogExportTimes')} rules={rules('maxLogExportTimes')}>
          <NumberInput style={{ width: '100%' }} />
        </Form.Item>
      )}
      {operator && (
        <Form.Item name="zoneLimit" label={t('zoneLimit')} extra={t('zoneLimitHelp')} rules={rules('zoneLimit')}>
          <NumberInput aria-label={t('zoneLimit')} style={{ width: '100%' }} />
        </Form.Item>
      )}
    </FormModal>
  );
}
