import { domainProofRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { DomainProofService } from './domain-proof.service.js';

export function bindDomainProofRoutes(binder: Binder, service: DomainProofService): void {
  binder.bind(domainProofRoutes.verifyDomains, async ({ params, body }, { caller }) => ({
    data: await service.verify(caller.accountId, params.siteId, body.domainIDs),
  }));
  binder.bind(domainProofRoutes.getDomainProofSetting, async (_i, { caller }) => ({
    data: await service.setting(caller.operatorId),
  }));
  binder.bind(domainProofRoutes.putDomainProofSetting, async ({ body }, { caller }) => ({
    data: await service.putSetting(caller.operatorId, body.required),
  }));
}
