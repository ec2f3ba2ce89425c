import { domainProofRoutes } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { DomainProofService } from './domain-proof.service.js';

export function bindDomainProofRoutes(binder: Binder, service: DomainProofService, nodes: NodesService): void {
  const operator = (caller: Caller | null) => nodes.operatorOf(requireCaller(caller).accountId);
  binder.bind(domainProofRoutes.verifyDomains, async ({ params, body }, { caller }) => ({
    data: await service.verify(requireCaller(caller).accountId, params.siteId, body.domainIDs),
  }));
  binder.bind(domainProofRoutes.getDomainProofSetting, async (_i, { caller }) => ({
    data: await service.setting(await operator(caller)),
  }));
  binder.bind(domainProofRoutes.putDomainProofSetting, async ({ body }, { caller }) => ({
    data: await service.putSetting(await operator(caller), body.required),
  }));
}
