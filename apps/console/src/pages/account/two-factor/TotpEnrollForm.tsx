import { authRoutes, LOGIN_2FA_TYPES, type Tier } from '@rampart/contract';
import { useMutation } from '@tanstack/react-query';
import { Button, Flex, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../../app/show-error';
import { schemaRules } from '../../../forms/zod-rules';
import { finishTwoFactorChange, type TotpEnrollment } from './two-factor-api';

// phase2's code is optional in the schema (none and e-mail need none) but must be 6 digits when
// given; an untouched field is validated as '' and so reads as required.
const rules = schemaRules(authRoutes.totpPhase2.request.body);

interface Props {
  tier: Tier;
  enrollment: TotpEnrollment;
  onDone: () => void;
  onCancel: () => void;
}

/** Step 2 for an authenticator (phase 1 done): scan the QR code or add the URI, then confirm a code (phase 2). */
export function TotpEnrollForm({ tier, enrollment, onDone, onCancel }: Props) {
  const { t } = useTranslation(['account', 'common']);
  const confirm = useMutation({
    mutationFn: (code: string) => finishTwoFactorChange(tier, enrollment.onePassKey, LOGIN_2FA_TYPES.totp, code),
    onSuccess: onDone,
    onError: (error) => showApiError(error),
  });

  return (
    <Form<{ code: string }> layout="vertical" onFinish={({ code }) => confirm.mutate(code.trim())}>
      <p style={{ marginTop: 0 }}>{t('twoFactor.scan')}</p>
      <img src={enrollment.qrCode} alt={t('twoFactor.qrAlt')} width={200} height={200} style={{ display: 'block' }} />
      <Form.Item label={t('twoFactor.setupUri')} htmlFor="totp-setup-uri" style={{ marginTop: 16 }}>
        <Input.TextArea id="totp-setup-uri" value={enrollment.qrCodeData} readOnly rows={3} />
      </Form.Item>
      <Form.Item name="code" label={t('twoFactor.code')} rules={rules('code')} required>
        <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
      </Form.Item>
      <Flex gap="small">
        <Button type="primary" htmlType="submit" loading={confirm.isPending}>
          {t('twoFactor.confirm')}
        </Button>
        <Button onClick={onCancel} disabled={confirm.isPending}>
          {t('common:cancel')}
        </Button>
      </Flex>
    </Form>
  );
}
