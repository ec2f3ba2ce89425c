import { authRoutes } from '@rampart/contract';
import { useMutation } from '@tanstack/react-query';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { callApi } from '../../api/client';
import { consolePath } from '../../app/console-paths';
import { showApiError } from '../../app/show-error';
import { useTier } from '../../app/tier-context';
import { toast, toastText } from '../../app/toast';
import { applyFieldErrors } from '../../forms/server-errors';
import { schemaRules } from '../../forms/zod-rules';
import { AuthCard } from './AuthCard';

interface NewPassword {
  password: string;
  confirmPassword: string;
}

const FIELDS = ['password', 'confirmPassword'] as const;

/**
 * `/{tier}/createPassword?auth&email&id&name&token` (from verifyMail): the first password of a new
 * account. Success goes to the login form with 'Create Password Successful!'. A failure shows the
 * error and replaces the route with the login form (spec part 1 §4), except a refused field (e.g.
 * a password too common), which is shown under its field so the visitor can pick another.
 */
export function CreatePasswordPage() {
  const tier = useTier();
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [form] = Form.useForm<NewPassword>();
  const rules = schemaRules(authRoutes.registerPassword.request.body, { token });

  const create = useMutation({
    mutationFn: (values: NewPassword) => callApi(authRoutes.registerPassword, { body: { token, ...values } }),
    onSuccess: () => {
      toast.success(toastText('createPasswordSuccess'));
      navigate(consolePath(tier, 'login'), { replace: true });
    },
    onError: (error) => {
      if (applyFieldErrors(form, error, FIELDS)) return;
      showApiError(error);
      navigate(consolePath(tier, 'login'), { replace: true });
    },
  });

  return (
    <AuthCard heading={t('createPasswordTitle')}>
      <p style={{ marginTop: 0 }}>
        {t('createPasswordFor', { name: search.get('name') ?? '', email: search.get('email') ?? '' })}
      </p>
      <Form<NewPassword>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => create.mutate(values)}
      >
        <Form.Item name="password" label={t('newPassword')} rules={rules('password')}>
          <Input.Password autoComplete="new-password" autoFocus />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('confirmPassword')}
          dependencies={['password']}
          rules={rules('confirmPassword')}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={create.isPending}>
          {t('createPassword')}
        </Button>
      </Form>
    </AuthCard>
  );
}
