import { authRoutes, zPassword } from '@rampart/contract';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useAccount } from '../../app/account-context';
import { showApiError } from '../../app/show-error';
import { useTier } from '../../app/tier-context';
import { toast, toastText } from '../../app/toast';
import { PageTitle } from '../../components/PageTitle';
import { applyFieldErrors } from '../../forms/server-errors';
import { schemaRules } from '../../forms/zod-rules';
import { callAuthed, sessionStore } from '../../session';

interface Information {
  name: string;
  email: string;
  password?: string;
}

const FIELDS = ['name', 'email', 'password'] as const;
const rules = schemaRules(authRoutes.updateSelf.request.body);
// The route takes the password as optional; it is needed when the e-mail changes, so then it is required here.
const passwordRules = schemaRules(z.object({ password: zPassword }));

/**
 * `/{tier}/userManagement/userInformation`: the account, with its name and e-mail editable. The
 * current password is asked for only when the e-mail changes.
 */
export function UserInformationPage() {
  const tier = useTier();
  const self = useAccount();
  const { t } = useTranslation(['account', 'shell']);
  const [form] = Form.useForm<Information>();
  const email = Form.useWatch('email', form) ?? self.email;
  const emailChanged = email.trim() !== self.email;

  const update = useMutation({
    mutationFn: ({ name, email, password }: Information) =>
      callAuthed(tier, authRoutes.updateSelf, {
        params: { auth: tier },
        body: emailChanged ? { name, email, password } : { name, email },
      }),
    onSuccess: (reply) => {
      sessionStore.updateSelf(tier, reply.data);
      form.setFieldsValue({ name: reply.data.name, email: reply.data.email, password: undefined });
      toast.success(toastText('updateInformationSuccess'));
    },
    onError: (error) => {
      if (!applyFieldErrors(form, error, FIELDS)) showApiError(error);
    },
  });

  return (
    <>
      <PageTitle>{t('shell:menu.userInformation')}</PageTitle>
      <Card style={{ maxWidth: 480 }}>
        <Form<Information>
          form={form}
          layout="vertical"
          initialValues={{ name: self.name, email: self.email }}
          onFinish={(values) => update.mutate(values)}
        >
          <Form.Item label={t('userInformation.account')} htmlFor="self-account">
            <Input id="self-account" value={self.account} readOnly variant="borderless" />
          </Form.Item>
          <Form.Item name="name" label={t('userInformation.name')} rules={rules('name')} required>
            <Input autoComplete="name" />
          </Form.Item>
          <Form.Item name="email" label={t('userInformation.email')} rules={rules('email')} required>
            <Input type="email" autoComplete="email" />
          </Form.Item>
          {emailChanged && (
            <Form.Item
              name="password"
              label={t('userInformation.password')}
              extra={t('userInformation.passwordHint')}
              rules={passwordRules('password')}
              required
            >
              <Input.Password autoComplete="current-password" />
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" loading={update.isPending}>
            {t('userInformation.save')}
          </Button>
        </Form>
      </Card>
    </>
  );
}
