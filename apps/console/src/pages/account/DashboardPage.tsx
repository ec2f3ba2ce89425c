import { ACCOUNT_STATUS_LABELS } from '@rampart/contract';
import { Card, Descriptions, type DescriptionsProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { canAll, useAccount } from '../../app/account-context';
import { localized } from '../../app/toast';
import { formatDateTime } from '../../components/DateTime';
import { PageTitle } from '../../components/PageTitle';
import { isStatisticsTier, STATISTICS_PERMISSION } from '../../features/statistics/statistics-routes';
import { useLocale } from '../../i18n';
import { ClientOverviewPanels } from '../client/dashboard/ClientOverviewPanels';
import { UserDashboardPanels } from '../user/dashboard/UserDashboardPanels';
import { DashboardAnalysis } from './dashboard/DashboardAnalysis';
import { login2FAName } from './login2fa-names';

/**
 * `/{tier}/dashboard`: the account summary; a customer also sees its operator's running announcements
 * and its products, an operator its overview and first-run checklist; both, when they may read the
 * statistics, their traffic over the last 24 hours or 30 days with the blacklist and WAF analysis.
 */
export function DashboardPage() {
  const { t } = useTranslation(['account', 'shell', 'common']);
  const [locale] = useLocale();
  const self = useAccount();
  const analysis = isStatisticsTier(self.auth) && canAll(self, [STATISTICS_PERMISSION[self.auth]]);

  const items: DescriptionsProps['items'] = [
    { key: 'account', label: t('summary.account'), children: self.account },
    { key: 'name', label: t('summary.name'), children: self.name },
    { key: 'email', label: t('summary.email'), children: self.email },
    { key: 'console', label: t('summary.console'), children: t(`common:tiers.${self.auth}`) },
    { key: 'status', label: t('summary.status'), children: localized(ACCOUNT_STATUS_LABELS[self.status]) },
    { key: 'root', label: t('summary.root'), children: self.isRoot ? t('common:yes') : t('common:no') },
    {
      key: 'secondFactor',
      label: t('summary.secondFactor'),
      children: t(`twoFactorTypes.${login2FAName(self.login2FAType)}`),
    },
    { key: 'createdAt', label: t('summary.createdAt'), children: formatDateTime(self.createdAt, locale) },
  ];

  return (
    <>
      <PageTitle>{t('shell:menu.dashboard')}</PageTitle>
      <Card title={t('summary.title')} data-testid="account-summary">
        <Descriptions items={items} column={{ xs: 1, md: 2 }} />
      </Card>
      {self.auth === 'user' && <UserDashboardPanels />}
      {self.auth === 'client' && <ClientOverviewPanels />}
      {analysis && (
        <div style={{ marginTop: 16 }}>
          <DashboardAnalysis />
        </div>
      )}
    </>
  );
}
