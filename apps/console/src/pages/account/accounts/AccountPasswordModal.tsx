import { authRoutes, type ManagedAccount, type Tier } from '@rampart/contract';
import { Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { FormModal } from '../../../components/FormModal';
import { schemaRules } from '../../../forms/zod-rules';

interface PasswordValues {
  password: string;
  confirmPassword: string;
}

const rules = schemaRules(authRoutes.setSubAccountPassword.request.body, { id: 1 });

/** Sets the password of an account below the caller; that account is signed out everywhere. */
export function AccountPasswordModal({
  tier,
  account,
  onClose,
}: {
  tier: Tier;
  account: ManagedAccount | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('accounts');
  const [form] = Form.useForm<PasswordValues>();
  const change = useRouteMutation(tier, authRoutes.setSubAccountPassword, {
    input: (values: PasswordValues & { id: number }) => ({ params: { auth: tier }, body: values }),
    invalidates: [],
    success: () => toastText('changePasswordSuccess'),
    form: { instance: form, fields: ['password', 'confirmPassword'] },
    onSuccess: onClose,
  });
  return (
    <FormModal<PasswordValues>
      open={account !== null}
      title={t('setPassword', { account: account?.account ?? '' })}
      form={form}
      pending={change.isPending}
      onCancel={onClose}
      onSubmit={(values) => account && change.mutate({ ...values, id: account.id })}
    >
      <Typography.Paragraph type="secondary">{t('passwordHint')}</Typography.Paragraph>
      <Form.Item name="password" label={t('newPassword')} rules={rules('password')} required>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('confirmPassword')}
        rules={rules('confirmPassword')}
        dependencies={['password']}
        required
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </FormModal>
  );
}
