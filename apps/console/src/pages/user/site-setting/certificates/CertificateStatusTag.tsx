import type { CertificateSummary } from '@rampart/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<CertificateSummary['status'], string> = { valid: 'green', expiring: 'orange', expired: 'red' };

/** valid, expiring (within 30 days) or expired. */
export function CertificateStatusTag({ status }: { status: CertificateSummary['status'] }) {
  const { t } = useTranslation('certificates');
  return <Tag color={COLORS[status]}>{t(`statuses.${status}`)}</Tag>;
}
