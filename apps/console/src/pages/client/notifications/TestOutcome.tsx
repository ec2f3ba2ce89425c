import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';

export interface Outcome {
  readonly ok: boolean;
  readonly text: string;
}

/** A refusal of a channel test (`code`) as an outcome with the other side's words; null for any other error. */
export function refusalOf(error: unknown, code: number): Outcome | null {
  if (!(error instanceof ApiError) || error.code !== code) return null;
  const extra = error.extra as { reason?: string } | undefined;
  return { ok: false, text: extra?.reason ?? error.serverMessage ?? '' };
}

/** What a channel test did: the detail of a pass, the mail server's or Telegram's words of a refusal. */
export function TestOutcome({ outcome }: { outcome: Outcome | null }) {
  const { t } = useTranslation('notifications');
  if (!outcome) return null;
  return (
    <Alert
      type={outcome.ok ? 'success' : 'error'}
      showIcon
      title={outcome.ok ? t('testPassed') : t('testFailed')}
      description={outcome.text}
      style={{ marginTop: 16 }}
    />
  );
}
