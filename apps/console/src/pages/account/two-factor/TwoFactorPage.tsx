import { LOGIN_2FA_TYPES, type Login2FAType } from '@rampart/contract';
import { Card, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccount } from '../../../app/account-context';
import { useTier } from '../../../app/tier-context';
import { toast, toastText } from '../../../app/toast';
import { PageTitle } from '../../../components/PageTitle';
import { sessionStore } from '../../../session';
import { login2FAName } from '../login2fa-names';
import { ChooseFactorForm } from './ChooseFactorForm';
import { TotpEnrollForm } from './TotpEnrollForm';
import type { SettableLogin2FAType, TotpEnrollment } from './two-factor-api';

/** The choice a form starts with: the current factor (the server-only "auto" type reads as none). */
function settable(type: Login2FAType): SettableLogin2FAType {
  return type === LOGIN_2FA_TYPES.auto ? LOGIN_2FA_TYPES.none : type;
}

/**
 * `/{tier}/userManagement/twoFactor`: shows the account's second factor and changes it in the
 * spec's phases: 0 the password, 1 a new authenticator secret (QR code and otpauth URI), 2 the
 * choice (with a code from the authenticator when that is the choice).
 */
export function TwoFactorPage() {
  const tier = useTier();
  const self = useAccount();
  const { t } = useTranslation(['account', 'shell']);
  const [enrollment, setEnrollment] = useState<TotpEnrollment | null>(null);

  const done = (type: SettableLogin2FAType) => {
    sessionStore.updateSelf(tier, { ...self, login2FAType: type });
    setEnrollment(null);
    toast.success(toastText('updateSuccess'));
  };

  return (
    <>
      <PageTitle>{t('shell:menu.twoFactor')}</PageTitle>
      <Card style={{ maxWidth: 560 }}>
        <p style={{ marginTop: 0 }}>
          {t('twoFactor.current')}{' '}
          <Tag color={self.login2FAType === LOGIN_2FA_TYPES.none ? 'default' : 'green'}>
            {t(`twoFactorTypes.${login2FAName(self.login2FAType)}`)}
          </Tag>
        </p>
        {enrollment ? (
          <TotpEnrollForm
            tier={tier}
            enrollment={enrollment}
            onDone={() => done(LOGIN_2FA_TYPES.totp)}
            onCancel={() => setEnrollment(null)}
          />
        ) : (
          <ChooseFactorForm
            key={self.login2FAType}
            tier={tier}
            initialType={settable(self.login2FAType)}
            onEnroll={setEnrollment}
            onDone={done}
          />
        )}
      </Card>
    </>
  );
}
