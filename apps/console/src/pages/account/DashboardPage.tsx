import { ACCOUNT_STATUS_LABELS, type Tier } from '@rampart/contract';
import { Card, Col, Descriptions, type DescriptionsProps, Flex, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { canAll, useAccount, useCan } from '../../app/account-context';
import { CONSOLE_PATHS } from '../../app/console-paths';
import { localized } from '../../app/toast';
import { formatDateTime } from '../../components/DateTime';
import { PageTitle } from '../../components/PageTitle';
import { TrafficUse } from '../../features/dashboard/UsePanels';
import { isStatisticsTier, STATISTICS_PERMISSION } from '../../features/statistics/statistics-routes';
import { useLocale } from '../../i18n';
import { ClientOverviewPanels } from '../client/dashboard/ClientOverviewPanels';
import { LicenseUse } from '../client/dashboard/LicenseUse';
import { NodesLive } from '../client/dashboard/NodesLive';
import { UserDashboardPanels } from '../user/dashboard/UserDashboardPanels';
import { DashboardAnalysis } from './dashboard/DashboardAnalysis';
import { LiveTraffic } from './dashboard/LiveTraffic';
import { login2FAName } from './login2fa-names';

/**
 * `/{tier}/dashboard`, live figures first: requests and blocked requests now and over 24 hours and
 * the most attacked domains (with the statistics key); an operator's checklist, nodes up or down
 * with their configuration, certificates and licence use; both tiers' traffic-plan use; the traffic
 * analysis over 24 hours or 30 days (the configurable widgets are the statistics customise page's);
 * a customer's announcements and products; the account summary last.
 */
export function DashboardPage() {
  const { t } = useTranslation(['account', 'shell', 'common', 'statistics']);
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
      <Flex vertical gap={16}>
        {analysis && <LiveTraffic />}
        {self.auth === 'client' && <ClientOverviewPanels />}
        <UsePanels tier={self.auth} />
        {analysis && (
          <DashboardAnalysis
            extra={
              <Link to={`/${self.auth}/${CONSOLE_PATHS.statisticsCustomize}`}>{t('statistics:live.customize')}</Link>
            }
          />
        )}
        {self.auth === 'user' && <UserDashboardPanels />}
        <Card title={t('summary.title')} data-testid="account-summary">
          <Descriptions items={items} column={{ xs: 1, md: 2 }} />
        </Card>
      </Flex>
    </>
  );
}

/** What each tier's account may read of its nodes, licence and traffic-plan use. */
function UsePanels({ tier }: { tier: Tier }) {
  const client = tier === 'client';
  const nodes = useCan('client.nodes.read') && client;
  const license = useCan('client.license.read') && client;
  const traffic = useCan(client ? 'client.traffic.read' : 'user.traffic.read') && tier !== 'admin';
  return (
    <>
      {nodes && <NodesLive />}
      {(license || traffic) && (
        <Row gutter={[16, 16]}>
          {license && (
            <Col xs={24} xl={12}>
              <LicenseUse />
            </Col>
          )}
          {traffic && (
            <Col xs={24} xl={12}>
              <TrafficUse tier={tier} />
            </Col>
          )}
        </Row>
      )}
    </>
  );
}
