import { zoneTrustRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { ZoneTrustService } from './zone-trust.service.js';

export function bindZoneTrustRoutes(binder: Binder, trust: ZoneTrustService): void {
  binder.bind(zoneTrustRoutes.getZoneTrust, async ({ params }, { caller }) => ({
    data: await trust.get(caller.operatorId, params.zoneID),
  }));
  binder.bind(zoneTrustRoutes.setZoneTrust, async ({ params, body }, { caller }) => ({
    data: await trust.set(caller.operatorId, params.zoneID, body),
  }));
}
