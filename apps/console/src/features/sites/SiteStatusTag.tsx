import { SITE_ACCOUNT_STATUS_LABELS, type SiteAccountStatus } from '@rampart/contract';
import { Tag } from 'antd';
import { localized } from '../../app/toast';
import { useLocale } from '../../i18n';

const COLORS: Record<SiteAccountStatus, string> = { normal: 'green', pause: 'default', limit: 'orange' };

/** A site's status (normal, pause, limit) with the contract's label. */
export function SiteStatusTag({ status }: { status: SiteAccountStatus }) {
  useLocale(); // re-render on a language change
  return <Tag color={COLORS[status]}>{localized(SITE_ACCOUNT_STATUS_LABELS[status])}</Tag>;
}
