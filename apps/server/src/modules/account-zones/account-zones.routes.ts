import { accountZoneRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { AccountZonesService } from './account-zones.service.js';

export function bindAccountZoneRoutes(binder: Binder, service: AccountZonesService): void {
  binder.bind(accountZoneRoutes.getAccountZones, async ({ params }, { caller }) => ({
    data: await service.get(caller, params.clientId),
  }));
  binder.bind(accountZoneRoutes.setAccountZones, async ({ params, body }, { caller }) => ({
    data: await service.set(caller, params.clientId, body.zoneIDs),
  }));
}
