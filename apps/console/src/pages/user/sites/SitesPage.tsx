import { type Site, siteRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan } from '../../../app/account-context';
import { siteSettingPath } from '../../../app/console-paths';
import { routeQuery } from '../../../app/route-query';
import type { ListColumns } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { actionsColumn } from '../../../components/RowActions';
import { TagsFilter } from '../../../components/TagsFilter';
import { urlQuery } from '../../../features/lists/use-list-search';
import { SiteFilters } from '../../../features/sites/SiteFilters';
import { useSiteStateColumns } from '../../../features/sites/site-columns';
import { useSiteListSearch } from '../../../features/sites/site-list-search';
import { ResourceSummary } from './ResourceSummary';
import { SiteTagsModal } from './SiteTagsModal';

/**
 * `/user/sitesManagement/sites`: the customer's totals, then its sites, paged and filtered on the
 * server (name, status, tags, product); each opens its settings and has its tags edited here. The
 * product filter is set by clicking a product in the list.
 */
export function SitesPage() {
  const { t } = useTranslation(['sites', 'common', 'shell']);
  const { search, query: baseQuery } = useSiteListSearch(['tags']);
  const chosenTags = search.all('tags');
  const query = { ...baseQuery, ...urlQuery(siteRoutes.listUserSites.request.query, search, ['tags']) };
  const sites = useQuery(routeQuery('user', siteRoutes.listUserSites, { query }));
  const tags = useQuery(routeQuery('user', siteRoutes.userSiteTags, {}));
  const [tagging, setTagging] = useState<Site | null>(null);
  const canWrite = useCan('user.sites.write');
  const productID = query.productID === undefined ? undefined : Number(query.productID);
  const productName = sites.data?.data.find((site) => site.productID === productID)?.productName;

  const stateColumns = useSiteStateColumns();
  const columns: ListColumns<Site> = [
    {
      title: t('name'),
      dataIndex: 'siteName',
      render: (name: string, site) => <Link to={siteSettingPath(site.siteID, name)}>{name}</Link>,
    },
    {
      title: t('product'),
      dataIndex: 'productName',
      ellipsis: true,
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
    actionsColumn((site) => (
      <Space>
        <Link to={siteSettingPath(site.siteID, site.siteName)}>{t('settings')}</Link>
        {canWrite && (
          <Button size="small" onClick={() => setTagging(site)}>
            {t('editTags.open')}
          </Button>
        )}
      </Space>
    )),
  ];

  return (
    <>
      <PageTitle>{t('shell:menu.sites')}</PageTitle>
      <ResourceSummary />
      <SiteFilters search={search}>
        <TagsFilter
          label={t('filters.tags')}
          placeholder={t('filters.anyTag')}
          value={chosenTags}
          tags={tags.data?.data}
          onChange={(chosen) => search.setFilters({ tags: chosen })}
        />
        {productID !== undefined && (
          <Tag closable onClose={() => search.setFilters({ productID: undefined })} style={{ alignSelf: 'center' }}>
            {t('filters.productTag', { name: productName ?? `#${productID}` })}
          </Tag>
        )}
      </SiteFilters>
      <ListTable<Site> rowKey="siteID" columns={columns} list={sites} paging={search} emptyText={t('emptyUser')} />
      <SiteTagsModal site={tagging} onClose={() => setTagging(null)} />
    </>
  );
}
