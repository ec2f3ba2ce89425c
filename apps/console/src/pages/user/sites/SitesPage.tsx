import { type Site, siteRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, type TableColumnsType, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { siteSettingPath } from '../../../app/console-paths';
import { routeQuery } from '../../../app/route-query';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { SiteFilters } from '../../../features/sites/SiteFilters';
import { useSiteStateColumns } from '../../../features/sites/site-columns';
import { useSiteListSearch } from '../../../features/sites/site-list-search';

/**
 * `/user/sitesManagement/sites`: the customer's sites, paged and filtered on the server; each opens
 * its settings. The product filter is set by clicking a product in the list (the user console has
 * no product list to choose from).
 */
export function SitesPage() {
  const { t } = useTranslation(['sites', 'common', 'shell']);
  const { search, query } = useSiteListSearch();
  const sites = useQuery(routeQuery('user', siteRoutes.listUserSites, { query }));
  const productName = sites.data?.data.find((site) => site.productID === query.productID)?.productName;

  const stateColumns = useSiteStateColumns();
  const columns: TableColumnsType<Site> = [
    {
      title: t('name'),
      dataIndex: 'siteName',
      render: (name: string, site) => <Link to={siteSettingPath(site.siteID, name)}>{name}</Link>,
    },
    {
      title: t('product'),
      dataIndex: 'productName',
      render: (name: string, site) => (
        <Button
          type="link"
          size="small"
          style={{ padding: 0 }}
          title={t('filters.byProduct', { name })}
          onClick={() => search.setFilters({ productID: String(site.productID) })}
        >
          {name}
        </Button>
      ),
    },
    ...stateColumns,
    {
      title: t('common:actions.title'),
      key: 'actions',
      render: (_, site) => <Link to={siteSettingPath(site.siteID, site.siteName)}>{t('settings')}</Link>,
    },
  ];

  return (
    <>
      <PageTitle>{t('shell:menu.sites')}</PageTitle>
      <SiteFilters search={search}>
        {query.productID !== undefined && (
          <Tag closable onClose={() => search.setFilters({ productID: undefined })} style={{ alignSelf: 'center' }}>
            {t('filters.productTag', { name: productName ?? `#${query.productID}` })}
          </Tag>
        )}
      </SiteFilters>
      <ListTable<Site> rowKey="siteID" columns={columns} list={sites} paging={search} emptyText={t('emptyUser')} />
    </>
  );
}
