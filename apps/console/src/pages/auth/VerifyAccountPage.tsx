import { authRoutes, LOGIN_2FA_TYPES } from '@rampart/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Flex, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { consolePath } from '../../app/console-paths';
import { landingPath } from '../../app/landing';
import { useTier } from '../../app/tier-context';
import { toast, toastText } from '../../app/toast';
import { schemaRules } from '../../forms/zod-rules';
import { pendingLogin, resendCode, submitCode } from '../../session';
import { AuthCard } from './AuthCard';
import { loginFailureText } from './login-failure';

const rules = schemaRules(authRoutes.login.request.body);

/**
 * `/{tier}/verifyAccount`: step 2 of the login, the 6-digit code from the e-mail (type 1, which can
 * be mailed again) or from the authenticator app (type 3). Its loader has checked that the step-1
 * info is waiting.
 */
export function VerifyAccountPage() {
  const tier = useTier();
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [form] = Form.useForm<{ code: string }>();
  // Read once: a successful login clears the step-1 info while this page is still shown.
  const [pending] = useState(() => pendingLogin(tier));
  const [failure, setFailure] = useState<string | null>(null);

  const verify = useMutation({
    mutationFn: (code: string) => submitCode(tier, code),
    onMutate: () => setFailure(null),
    onSuccess: (self) => {
      toast.success(toastText('loginSuccess'));
      navigate(landingPath(tier, self), { replace: true });
    },
    onError: (error) => setFailure(loginFailureText(error)),
  });
  const resend = useMutation({
    mutationFn: () => resendCode(tier),
    onMutate: () => setFailure(null),
    onSuccess: () => toast.success(toastText('checkMailForCode')),
    onError: (error) => setFailure(loginFailureText(error)),
  });

  if (!pending) return null;
  const byEmail = pending.login2FAType === LOGIN_2FA_TYPES.email;
  return (
    <AuthCard heading={t('verifyTitle')}>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={({ code }) => verify.mutate(code.trim())}>
        {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} />}
        <p style={{ marginTop: 0 }}>{byEmail ? t('codeHintEmail', { account: pending.account }) : t('codeHintTotp')}</p>
        <Form.Item name="code" label={t('code')} rules={rules('code')}>
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={verify.isPending}>
          {t('verify')}
        </Button>
        <Flex justify="space-between" align="center" style={{ marginTop: 12 }}>
          <Link to={consolePath(tier, 'login')} replace>
            {t('backToLogin')}
          </Link>
          {byEmail && (
            <Button type="link" onClick={() => resend.mutate()} loading={resend.isPending} style={{ paddingInline: 0 }}>
              {t('resendCode')}
            </Button>
          )}
        </Flex>
      </Form>
    </AuthCard>
  );
}
