import { zoneRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { routeQuery } from '../../../app/route-query';
import type { ListColumns } from '../../../components/FitTable';
import { PageTitle } from '../../../components/PageTitle';
import { AccountPicker } from '../../../features/accounts/AccountPicker';
import { BlockList, type BlockRow } from '../../../features/block-list/BlockList';
import type { BlockListKey } from '../../../features/block-list/block-list-search';
import type { ListSearch } from '../../../features/lists/use-list-search';

/**
 * `/client/sitesManagement/blockList`: the addresses blocked on every site of the operator's
 * customers, with the customer's account, filtered also by customer and by the blocking node's zone.
 */
export function ClientBlockListPage() {
  const { t } = useTranslation(['shell', 'blockList']);
  const columns: ListColumns<BlockRow> = [
    { title: t('blockList:customer'), dataIndex: 'userAccount', ellipsis: true, maxWidth: 90 },
  ];
  return (
    <>
      <PageTitle>{t('menu.blockList')}</PageTitle>
      <BlockList tier="client" moreColumns={columns} moreFilters={(search) => <OperatorFilters search={search} />} />
    </>
  );
}

/** The customer (where the operator may list accounts) and the zone (where it may list zones). */
function OperatorFilters({ search }: { search: ListSearch<BlockListKey> }) {
  const { t } = useTranslation('blockList');
  const canListZones = useCan('client.zones.read');
  const canListAccounts = useCan('accounts.read');
  const zones = useQuery({ ...routeQuery('client', zoneRoutes.metaZones, {}), enabled: canListZones });
  const id = (key: 'zoneID' | 'userID') => {
    const value = Number(search.filters[key]);
    return Number.isInteger(value) && value > 0 ? value : undefined;
  };
  return (
    <>
      {canListAccounts && (
        <AccountPicker
          allowClear
          ariaLabel={t('filters.customer')}
          placeholder={t('filters.allCustomers')}
          style={{ width: 200 }}
          value={id('userID')}
          onChange={(userID) =>
            search.setFilters({ userID: userID === undefined ? undefined : String(userID), siteID: undefined })
          }
        />
      )}
      {canListZones && (
        <Select
          allowClear
          style={{ width: 160 }}
          aria-label={t('filters.zone')}
          placeholder={t('filters.allZones')}
          value={id('zoneID')}
          loading={zones.isLoading}
          showSearch
          optionFilterProp="label"
          options={zones.data?.data.map((zone) => ({ value: zone.id, label: zone.name }))}
          onChange={(zoneID?: number) =>
            search.setFilters({ zoneID: zoneID === undefined ? undefined : String(zoneID) })
          }
        />
      )}
    </>
  );
}
