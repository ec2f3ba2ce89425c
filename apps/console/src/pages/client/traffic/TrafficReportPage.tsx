import { type MonthlyUsage, TRAFFIC_REPORT_PAGE_SIZES, trafficRoutes } from '@rampart/contract';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { PageTitle } from '../../../components/PageTitle';
import { AccountPicker } from '../../../features/accounts/AccountPicker';
import { pendingFor } from '../../../features/lists/row-pending';
import { useListSearch } from '../../../features/lists/use-list-search';
import { MonthlyUsageTable, type UsageKey } from '../../../features/traffic/MonthlyUsageTable';

const KEYS: readonly UsageKey[] = ['month', 'userID'];

/**
 * `/client/trafficPkgManagement/trafficReport`: the month's traffic of every customer's site
 * against its allowance (page sizes 25 to 500), one customer's when chosen; a restricted site's
 * restriction is lifted from its row (docs/decisions.md "Traffic packages").
 */
export function TrafficReportPage() {
  const { t } = useTranslation(['traffic', 'shell']);
  const search = useListSearch(KEYS, TRAFFIC_REPORT_PAGE_SIZES);
  const canLift = useCan('client.sites.write');
  const canListAccounts = useCan('accounts.read');
  const lift = useRouteMutation('client', trafficRoutes.liftTrafficRestriction, {
    input: (id: number) => ({ body: { ids: [id] } }),
    invalidates: changes('trafficRestriction'),
    success: () => toastText('setSuccess'),
  });
  const userID = Number(search.filters.userID);
  const action = (row: MonthlyUsage) =>
    row.restriction !== null && canLift ? (
      <ConfirmButton
        confirm={t('liftConfirm', { site: row.siteName })}
        pending={pendingFor(lift, row.siteID)}
        onConfirm={() => lift.mutate(row.siteID)}
      >
        {t('lift')}
      </ConfirmButton>
    ) : null;
  return (
    <>
      <PageTitle>{t('shell:menu.trafficReport')}</PageTitle>
      <MonthlyUsageTable
        tier="client"
        search={search}
        customerColumn
        action={action}
        filters={
          canListAccounts && (
            <AccountPicker
              allowClear
              ariaLabel={t('customer')}
              placeholder={t('allCustomers')}
              style={{ width: 200 }}
              value={Number.isInteger(userID) && userID > 0 ? userID : undefined}
              onChange={(id) => search.setFilters({ userID: id === undefined ? undefined : String(id) })}
            />
          )
        }
      />
    </>
  );
}
