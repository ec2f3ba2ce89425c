import { autoCertificateRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { AcmeSettingsService } from './acme-settings.service.js';
import type { AutoCertificatesService } from './auto-certificates.service.js';

export function bindAutoCertificateRoutes(
  binder: Binder,
  certificates: AutoCertificatesService,
  settings: AcmeSettingsService,
): void {
  const r = autoCertificateRoutes;
  binder.bind(r.listAutoCertificates, async ({ query }, { caller }) => certificates.list(caller.operatorId, query));
  binder.bind(r.renewAutoCertificates, async ({ body }, { caller }) => {
    await certificates.renew(caller.operatorId, body.ids);
  });
  binder.bind(r.getAcmeSetting, async (_i, { caller }) => ({ data: await settings.get(caller.operatorId) }));
  binder.bind(r.saveAcmeSetting, async ({ body }, { caller }) => ({
    data: await settings.save(caller.operatorId, body),
  }));
  binder.bind(r.getZeroSSLSetting, async (_i, { caller }) => ({
    data: await settings.getEab('zeroSSL', caller.operatorId),
  }));
  binder.bind(r.saveZeroSSLSetting, async ({ body }, { caller }) => ({
    data: await settings.saveEab('zeroSSL', caller.operatorId, body),
  }));
  binder.bind(r.getGoogleTrustSetting, async (_i, { caller }) => ({
    data: await settings.getEab('googleTrust', caller.operatorId),
  }));
  binder.bind(r.saveGoogleTrustSetting, async ({ body }, { caller }) => ({
    data: await settings.saveEab('googleTrust', caller.operatorId, body),
  }));
}
