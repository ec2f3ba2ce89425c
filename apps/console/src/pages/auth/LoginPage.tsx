import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { authRoutes, LOGIN_2FA_TYPES } from '@rampart/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { consolePath } from '../../app/console-paths';
import { landingPath } from '../../app/landing';
import { useTier } from '../../app/tier-context';
import { toast, toastText } from '../../app/toast';
import { brandingOperator } from '../../features/branding/use-branding';
import { applyFieldErrors } from '../../forms/server-errors';
import { schemaRules } from '../../forms/zod-rules';
import { submitCredentials } from '../../session';
import { AuthCard } from './AuthCard';
import { loginFailureText } from './login-failure';

interface Credentials {
  account: string;
  password: string;
}

const FIELDS = ['account', 'password'] as const;
const rules = schemaRules(authRoutes.requestLogin.request.body);

/** `/{tier}/login`: step 1 of the login (spec part 1 §4). */
export function LoginPage() {
  const tier = useTier();
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [form] = Form.useForm<Credentials>();
  const [failure, setFailure] = useState<string | null>(null);

  const login = useMutation({
    mutationFn: (values: Credentials) => {
      // The operator of the login link (`?operator=`) or remembered: whose customer or sub-account
      // this name is. The admin console has no operator.
      const operator = tier === 'admin' ? undefined : brandingOperator();
      return submitCredentials(tier, operator ? { ...values, operator } : values);
    },
    onMutate: () => setFailure(null),
    onSuccess: (outcome) => {
      if (outcome.kind === 'signedIn') {
        toast.success(toastText('loginSuccess'));
        navigate(landingPath(tier, outcome.self), { replace: true });
        return;
      }
      if (outcome.login2FAType === LOGIN_2FA_TYPES.email) toast.success(toastText('checkMailForCode'));
      navigate(consolePath(tier, 'verifyAccount'));
    },
    onError: (error) => {
      if (!applyFieldErrors(form, error, FIELDS)) setFailure(loginFailureText(error));
    },
  });

  return (
    <AuthCard>
      <Form<Credentials>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => login.mutate(values)}
        disabled={login.isPending}
      >
        {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} />}
        <Form.Item name="account" label={t('account')} rules={rules('account')}>
          <Input prefix={<UserOutlined />} autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item name="password" label={t('password')} rules={rules('password')}>
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={login.isPending}>
          {t('logIn')}
        </Button>
      </Form>
    </AuthCard>
  );
}
