import { certificateRoutes } from '@rampart/contract';
import { type Binder, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { CertificatesService } from './certificates.service.js';

export function bindCertificateRoutes(binder: Binder, certs: CertificatesService): void {
  const r = certificateRoutes;
  binder.bind(r.listCertificates, async ({ params, query }, { caller }) =>
    certs.list(requireCaller(caller).accountId, params.siteId, query),
  );
  binder.bind(r.metaCertificates, async ({ params }, { caller }) => ({
    data: await certs.meta(requireCaller(caller).accountId, params.siteId),
  }));
  binder.bind(r.getCertificate, async ({ params }, { caller }) => ({
    data: await certs.get(requireCaller(caller).accountId, params.siteId, params.certificateId),
  }));
  binder.bind(r.createCertificate, async ({ params, body }, { caller, request }) => ({
    data: await certs.create(requireCaller(caller).accountId, params.siteId, body, requestLocale(request)),
  }));
  binder.bind(r.updateCertificate, async ({ params, body }, { caller, request }) => ({
    data: await certs.update(requireCaller(caller).accountId, params.siteId, body, requestLocale(request)),
  }));
  binder.bind(r.deleteCertificates, async ({ params, body }, { caller, request }) => {
    await certs.delete(requireCaller(caller).accountId, params.siteId, body.ids, requestLocale(request));
    return { data: true as const };
  });
  binder.bind(r.assignCertificate, async ({ params, body }, { caller }) => {
    await certs.assign(requireCaller(caller).accountId, params.siteId, body.certificateID, body.domainIDs);
    return { data: true as const };
  });
}
