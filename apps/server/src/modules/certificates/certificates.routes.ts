import { certificateRoutes, expiringCertificateRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { CertificatesService } from './certificates.service.js';

export function bindCertificateRoutes(binder: Binder, certs: CertificatesService): void {
  const r = certificateRoutes;
  binder.bind(r.listCertificates, async ({ params, query }, { caller }) =>
    certs.list(caller.accountId, params.siteId, query),
  );
  binder.bind(r.metaCertificates, async ({ params }, { caller }) => ({
    data: await certs.meta(caller.accountId, params.siteId),
  }));
  binder.bind(r.getCertificate, async ({ params }, { caller }) => ({
    data: await certs.get(caller.accountId, params.siteId, params.certificateId),
  }));
  binder.bind(r.createCertificate, async ({ params, body }, { caller }) => ({
    data: await certs.create(caller.accountId, params.siteId, body),
  }));
  binder.bind(r.updateCertificate, async ({ params, body }, { caller }) => ({
    data: await certs.update(caller.accountId, params.siteId, body),
  }));
  binder.bind(r.deleteCertificates, async ({ params, body }, { caller }) => {
    await certs.delete(caller.accountId, params.siteId, body.ids);
  });
  binder.bind(expiringCertificateRoutes.userExpiringCertificates, async (_input, { caller }) => ({
    data: await certs.expiring(caller.accountId),
  }));
  binder.bind(r.assignCertificate, async ({ params, body }, { caller }) => {
    await certs.assign(caller.accountId, params.siteId, body.certificateID, body.domainIDs);
  });
}
