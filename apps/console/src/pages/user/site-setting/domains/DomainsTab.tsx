import { domainRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../../../app/account-context';
import { routeQuery } from '../../../../app/route-query';
import { useDomainStates } from '../../../../features/domains/DomainStateBadges';
import { useListSearch } from '../../../../features/lists/use-list-search';
import { DomainBulkBar } from './DomainBulkBar';
import { DomainDialogs } from './DomainDialogs';
import { DomainFilters } from './DomainFilters';
import { DomainsTable } from './DomainsTable';
import { useDomainActions } from './domain-actions';
import { DOMAIN_LIST_KEYS, type DomainDialog, domainListQuery } from './domain-list';

/** A site's domains, paged, searched, filtered and sorted on the server; add, edit, switch, delete. */
export function DomainsTab({ siteId }: { siteId: number }) {
  const canWrite = useCan('user.domains.write');
  const canSeeAccess = useCan('user.firewall.read');
  const search = useListSearch(DOMAIN_LIST_KEYS);
  const domains = useQuery(
    routeQuery('user', domainRoutes.listDomains, { params: { siteId }, query: domainListQuery(search) }),
  );
  const states = useDomainStates(siteId, domains.data?.data);
  const [selected, setSelected] = useState<number[]>([]);
  const [dialog, setDialog] = useState<DomainDialog | null>(null);
  const actions = useDomainActions(siteId, (ids) =>
    setSelected((current) => current.filter((id) => !ids.includes(id))),
  );

  return (
    <>
      <DomainFilters siteId={siteId} search={search} />
      <DomainBulkBar siteId={siteId} canWrite={canWrite} selected={selected} actions={actions} onOpen={setDialog} />
      <DomainsTable
        siteId={siteId}
        canWrite={canWrite}
        search={search}
        list={domains}
        states={states}
        actions={actions}
        selected={selected}
        onSelect={setSelected}
        onEdit={(domain) => setDialog({ kind: 'edit', domain })}
        onAccess={canSeeAccess ? (domain) => setDialog({ kind: 'access', domain }) : undefined}
      />
      <DomainDialogs
        siteId={siteId}
        dialog={dialog}
        onClose={() => setDialog(null)}
        onSelectionDone={() => setSelected([])}
      />
    </>
  );
}
