import { domainStateRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { DomainStatesService } from './domain-states.service.js';

export function bindDomainStateRoutes(binder: Binder, service: DomainStatesService): void {
  binder.bind(domainStateRoutes.domainStates, async ({ params, query }, { caller }) => ({
    data: await service.states(caller.accountId, params.siteId, query.ids ?? []),
  }));
  binder.bind(domainStateRoutes.clientDomainStates, async ({ query }, { caller }) => ({
    data: await service.operatorStates(caller.operatorId, query.ids ?? []),
  }));
}
