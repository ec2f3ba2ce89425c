import { siteRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, type DescriptionsProps, Empty, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { canAll, useAccount } from '../../../app/account-context';
import { USER_PATHS } from '../../../app/console-paths';
import { routeQuery } from '../../../app/route-query';
import { DateTime } from '../../../components/DateTime';
import { ListEmpty } from '../../../components/ListEmpty';
import { PageTitle } from '../../../components/PageTitle';
import { TagList } from '../../../components/TagList';
import { urlId } from '../../../features/lists/use-list-search';
import { SiteStatusTag } from '../../../features/sites/SiteStatusTag';
import { AuthTab } from './auth/AuthTab';
import { CacheTab } from './cache/CacheTab';
import { CertificatesTab } from './certificates/CertificatesTab';
import { DomainsTab } from './domains/DomainsTab';
import { FirewallTab } from './firewall/FirewallTab';
import { L4FirewallTab } from './firewall/L4FirewallTab';
import { ModulesTab } from './modules/ModulesTab';
import { SiteOptionsTab } from './options/SiteOptionsTab';
import { PortsTab } from './ports/PortsTab';
import { SiteUsersTab } from './users/SiteUsersTab';

/** The tabs `?tab=` may name; anything else shows the first tab the site has. */
const TABS = ['domains', 'certificates', 'cache', 'settings', 'firewall', 'modules', 'auth', 'ports', 'users'] as const;
type Tab = (typeof TABS)[number];

/** A tab that needs a permission of its own (a role may leave it out); the others go with the site. */
const TAB_PERMISSIONS: Partial<Record<Tab, string>> = { firewall: 'user.firewall.read' };

/**
 * The tabs of a site by its product's port type: layer 7 serves domains (and what hangs on them,
 * the firewall's URL rules too), layer 4 serves ports and their firewall (the layer-4 rules,
 * L4FirewallTab); users apply to both. Unknown (the site did not load): every tab.
 */
export function siteTabs(portType: 4 | 7 | undefined): readonly Tab[] {
  if (portType === 4) return ['ports', 'firewall', 'users'];
  if (portType === 7) return TABS.filter((key) => key !== 'ports');
  return TABS;
}

/**
 * `/user/sitesManagement/sitesSetting/:id?/:name?`: one site's header and its settings in tabs
 * (domains, certificates, cache rules, compression / rate limits / error pages, firewall lists,
 * modules, layer-4 ports (and their firewall), sub-accounts given access; `?tab=` in the URL). A tab the caller's
 * permissions do not cover is not shown. The name in the path titles the page until the site
 * has loaded. Without an id it points back to the site list.
 */
export function SiteSettingPage() {
  const { t } = useTranslation(['sites', 'shell']);
  const { id, name } = useParams();
  const siteId = urlId(id);
  if (siteId === undefined) {
    return (
      <>
        <PageTitle>{t('shell:menu.sitesSetting')}</PageTitle>
        <Empty description={t('setting.chooseSite')}>
          <Link to={`/user/${USER_PATHS.sites}`}>{t('setting.toList')}</Link>
        </Empty>
      </>
    );
  }
  return <SiteSetting siteId={siteId} name={name ?? ''} />;
}

function SiteSetting({ siteId, name }: { siteId: number; name: string }) {
  const { t } = useTranslation(['sites', 'shell', 'siteSettings', 'firewall']);
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const site = useQuery(routeQuery('user', siteRoutes.getUserSite, { params: { siteId } }));
  const self = useAccount();
  const data = site.data?.data;
  const shown = siteTabs(data?.portType).filter((key) => canAll(self, [TAB_PERMISSIONS[key]]));
  const tab = (shown as readonly string[]).includes(asked ?? '') ? (asked as Tab) : (shown[0] ?? 'domains');

  const items: DescriptionsProps['items'] = data && [
    { key: 'status', label: t('status'), children: <SiteStatusTag status={data.status} /> },
    { key: 'product', label: t('product'), children: data.productName },
    {
      key: 'tags',
      label: t('tags'),
      children: <TagList items={data.tags} />,
    },
    { key: 'expiredAt', label: t('expiredAt'), children: <DateTime value={data.expiredAt} /> },
    { key: 'createdAt', label: t('createdAt'), children: <DateTime value={data.createdAt} /> },
  ];

  return (
    <>
      <PageTitle>{data?.siteName || name || t('shell:menu.sitesSetting')}</PageTitle>
      <Card loading={site.isLoading} style={{ marginBottom: 16 }} data-testid="site-header">
        {site.isError ? (
          <ListEmpty text="" failed onRetry={() => site.refetch()} />
        ) : (
          <Descriptions items={items} column={{ xs: 1, md: 3 }} />
        )}
      </Card>
      {/* The tabs wait for the site: a layer-4 site has no domain tabs, a layer-7 site no ports. */}
      {!site.isLoading && (
        <Tabs
          activeKey={tab}
          onChange={(key) => setParams({ tab: key })}
          destroyOnHidden
          items={[
            { key: 'domains', label: t('setting.tabs.domains'), children: <DomainsTab siteId={siteId} /> },
            {
              key: 'certificates',
              label: t('setting.tabs.certificates'),
              children: <CertificatesTab siteId={siteId} />,
            },
            { key: 'cache', label: t('setting.tabs.cache'), children: <CacheTab siteId={siteId} /> },
            { key: 'settings', label: t('siteSettings:tab'), children: <SiteOptionsTab siteId={siteId} /> },
            {
              key: 'firewall',
              label: t('firewall:tab'),
              children: data?.portType === 4 ? <L4FirewallTab siteId={siteId} /> : <FirewallTab siteId={siteId} />,
            },
            { key: 'modules', label: t('setting.tabs.modules'), children: <ModulesTab siteId={siteId} /> },
            { key: 'auth', label: t('setting.tabs.auth'), children: <AuthTab siteId={siteId} /> },
            { key: 'ports', label: t('setting.tabs.ports'), children: <PortsTab siteId={siteId} /> },
            { key: 'users', label: t('setting.tabs.users'), children: <SiteUsersTab siteId={siteId} /> },
          ]
            .filter((item) => (shown as readonly string[]).includes(item.key))
            // In the order of the site's tabs (a layer-4 site's Ports come first).
            .sort((a, b) => shown.indexOf(a.key as Tab) - shown.indexOf(b.key as Tab))}
        />
      )}
    </>
  );
}
