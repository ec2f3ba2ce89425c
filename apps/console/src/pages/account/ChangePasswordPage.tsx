import { authRoutes } from '@rampart/contract';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../app/show-error';
import { useTier } from '../../app/tier-context';
import { toast, toastText } from '../../app/toast';
import { PageTitle } from '../../components/PageTitle';
import { applyFieldErrors } from '../../forms/server-errors';
import { schemaRules } from '../../forms/zod-rules';
import { callAuthed, replaceTokens } from '../../session';

interface PasswordChange {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

const FIELDS = ['oldPassword', 'password', 'confirmPassword'] as const;
const rules = schemaRules(authRoutes.changePassword.request.body);

/**
 * `/{tier}/changePassword`. The server logs out every other session of the account and answers
 * a new token set for this one, which replaces the stored tokens.
 */
export function ChangePasswordPage() {
  const tier = useTier();
  const { t } = useTranslation(['account', 'shell']);
  const [form] = Form.useForm<PasswordChange>();

  const change = useMutation({
    mutationFn: (body: PasswordChange) => callAuthed(tier, authRoutes.changePassword, { params: { auth: tier }, body }),
    onSuccess: (reply) => {
      replaceTokens(tier, reply.data);
      form.resetFields();
      toast.success(toastText('changePasswordSuccess'));
    },
    onError: (error) => {
      if (!applyFieldErrors(form, error, FIELDS)) showApiError(error);
    },
  });

  return (
    <>
      <PageTitle>{t('shell:menu.changePassword')}</PageTitle>
      <Card style={{ maxWidth: 480 }}>
        <p style={{ marginTop: 0 }}>{t('changePassword.hint')}</p>
        <Form<PasswordChange> form={form} layout="vertical" onFinish={(values) => change.mutate(values)}>
          <Form.Item name="oldPassword" label={t('changePassword.oldPassword')} rules={rules('oldPassword')} required>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item name="password" label={t('changePassword.newPassword')} rules={rules('password')} required>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirmPassword"
            label={t('changePassword.confirmPassword')}
            dependencies={['password']}
            rules={rules('confirmPassword')}
            required
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={change.isPending}>
            {t('changePassword.submit')}
          </Button>
        </Form>
      </Card>
    </>
  );
}
