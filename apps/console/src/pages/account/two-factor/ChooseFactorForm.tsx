import { authRoutes, LOGIN_2FA_TYPES, type Tier } from '@rampart/contract';
import { useMutation } from '@tanstack/react-query';
import { Button, Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../../app/show-error';
import { toast } from '../../../app/toast';
import { applyFieldErrors } from '../../../forms/server-errors';
import { schemaRules } from '../../../forms/zod-rules';
import { login2FAName } from '../login2fa-names';
import {
  SETTABLE_TYPES,
  type SettableLogin2FAType,
  sendTwoFactorChangeCode,
  startTwoFactorChange,
  type TotpEnrollment,
} from './two-factor-api';

interface FactorChoice {
  login2FAType: SettableLogin2FAType;
  password: string;
  code?: string;
}

const rules = schemaRules(authRoutes.totpPhase0.request.body);

interface Props {
  tier: Tier;
  initialType: SettableLogin2FAType;
  /** An authenticator was chosen: phase 1 gave its secret, to be confirmed with a code. */
  onEnroll: (enrollment: TotpEnrollment) => void;
  /** None or e-mail was chosen and set (phase 2 done). */
  onDone: (type: SettableLogin2FAType) => void;
}

/**
 * Step 1 of the change: the new second factor, the current password and, while a second factor is
 * on, a code of it: the authenticator's, or one mailed on request (phase 0).
 */
export function ChooseFactorForm({ tier, initialType, onEnroll, onDone }: Props) {
  const { t } = useTranslation('account');
  const [form] = Form.useForm<FactorChoice>();

  const start = useMutation({
    mutationFn: ({ login2FAType, password, code }: FactorChoice) =>
      startTwoFactorChange(tier, login2FAType, password, code),
    onSuccess: (enrollment, { login2FAType }) => {
      if (enrollment) {
        onEnroll(enrollment);
        return;
      }
      form.resetFields();
      onDone(login2FAType);
    },
    onError: (error) => {
      if (!applyFieldErrors(form, error, ['password', 'code'])) showApiError(error);
    },
  });

  const sendCode = useMutation({
    mutationFn: () => sendTwoFactorChangeCode(tier),
    onSuccess: () => toast.success(t('twoFactor.codeSent')),
    onError: (error) => showApiError(error),
  });

  return (
    <Form<FactorChoice>
      form={form}
      layout="vertical"
      initialValues={{ login2FAType: initialType }}
      onFinish={(values) => start.mutate(values)}
    >
      <Form.Item name="login2FAType" label={t('twoFactor.choose')}>
        <Radio.Group
          options={SETTABLE_TYPES.map((type) => ({ value: type, label: t(`twoFactorTypes.${login2FAName(type)}`) }))}
        />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('twoFactor.password')}
        extra={t('twoFactor.passwordHint')}
        rules={rules('password')}
        required
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      {initialType === LOGIN_2FA_TYPES.totp && (
        <Form.Item
          name="code"
          label={t('twoFactor.currentCode')}
          extra={t('twoFactor.currentCodeHint')}
          rules={rules('code')}
          required
        >
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        </Form.Item>
      )}
      {initialType === LOGIN_2FA_TYPES.email && (
        <>
          <Form.Item>
            <Button onClick={() => sendCode.mutate()} loading={sendCode.isPending}>
              {t('twoFactor.sendCode')}
            </Button>
          </Form.Item>
          <Form.Item
            name="code"
            label={t('twoFactor.mailedCode')}
            extra={t('twoFactor.mailedCodeHint')}
            rules={rules('code')}
            required
          >
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
          </Form.Item>
        </>
      )}
      <Button type="primary" htmlType="submit" loading={start.isPending}>
        {t('twoFactor.next')}
      </Button>
    </Form>
  );
}
