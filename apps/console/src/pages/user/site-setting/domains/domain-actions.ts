import { certificateRoutes, type DomainStatus, domainRoutes } from '@rampart/contract';
import { useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';

/** The list's calls on chosen domains: enable / disable, force HTTPS on / off, delete. */
export function useDomainActions(siteId: number, onDeleted: (ids: number[]) => void) {
  const params = { siteId };
  const invalidates = [domainRoutes.listDomains];
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
  const remove = useRouteMutation('user', domainRoutes.deleteDomains, {
    input: (ids: number[]) => ({ params, body: { ids } }),
    invalidates: [...invalidates, certificateRoutes.listCertificates, certificateRoutes.getCertificate],
    success: () => toastText('deleteSuccess'),
    onSuccess: (_reply, ids) => onDeleted(ids),
  });
  return { setStatus, setForceSSL, remove };
}
