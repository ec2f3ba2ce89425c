import { DOMAIN_CNAME_STATUS, type DomainStatus, domainRoutes } from '@rampart/contract';
import { changes } from '../../../../app/resource-changes';
import { useRouteMutation } from '../../../../app/route-query';
import { toast, toastText } from '../../../../app/toast';
import { i18n } from '../../../../i18n/i18n';

/** The list's calls on chosen domains: enable / disable, force HTTPS on / off, check CNAME, delete. */
export function useDomainActions(siteId: number, onDeleted: (ids: number[]) => void) {
  const params = { siteId };
  const invalidates = changes('domains');
  const setStatus = useRouteMutation('user', domainRoutes.setDomainsStatus, {
    input: (body: { domainIDs: number[]; status: DomainStatus }) => ({ params, body }),
    invalidates,
    success: () => toastText('setSuccess'),
  });
  const setForceSSL = useRouteMutation('user', domainRoutes.setDomainsForceSSL, {
    input: (body: { domainIDs: number[]; forceSSL: boolean }) => ({ params, body }),
    invalidates,
    success: () => toastText('setSuccess'),
  });
  const checkCname = useRouteMutation('user', domainRoutes.checkDomainsCNAME, {
    input: (domainIDs: number[]) => ({ params, body: { domainIDs } }),
    invalidates,
    onSuccess: (reply) =>
      toast.success(
        i18n.t('domains:bulk.checkCnameDone', {
          count: reply.data.length,
          verified: reply.data.filter((d) => d.cnameStatus === DOMAIN_CNAME_STATUS.verified).length,
        }),
      ),
  });
  const remove = useRouteMutation('user', domainRoutes.deleteDomains, {
    input: (ids: number[]) => ({ params, body: { ids } }),
    invalidates,
    success: () => toastText('deleteSuccess'),
    onSuccess: (_reply, ids) => onDeleted(ids),
  });
  return { setStatus, setForceSSL, checkCname, remove };
}
