import { zoneRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { ZonesService } from './zones.service.js';

export function bindZoneRoutes(binder: Binder, zones: ZonesService): void {
  binder.bind(zoneRoutes.listZones, async ({ query }, { caller }) => zones.list(caller, query));
  binder.bind(zoneRoutes.metaZones, async (_input, { caller }) => ({
    data: await zones.meta(caller),
  }));
  binder.bind(zoneRoutes.createZone, async ({ body }, { caller }) => ({
    data: await zones.create(caller.operatorId, body, caller.accountId),
  }));
  binder.bind(zoneRoutes.updateZone, async ({ body }, { caller }) => ({
    data: await zones.update(caller.operatorId, body),
  }));
  binder.bind(zoneRoutes.deleteZone, async ({ body }, { caller }) => {
    await zones.delete(caller.operatorId, body.id);
  });
  binder.bind(zoneRoutes.getZoneSettings, async ({ params }, { caller }) => ({
    data: await zones.settings(caller.operatorId, params.zoneID),
  }));
  binder.bind(zoneRoutes.setZoneHttp2, async ({ params, body }, { caller }) => ({
    data: await zones.changeSettings(caller.operatorId, params.zoneID, { http2: body.enable }),
  }));
  binder.bind(zoneRoutes.setZoneHttp3, async ({ params, body }, { caller }) => ({
    data: await zones.setHttp3(caller.operatorId, params.zoneID, body.enable),
  }));
  binder.bind(zoneRoutes.setZoneForceSSLRedirectCode, async ({ params, body }, { caller }) => ({
    data: await zones.changeSettings(caller.operatorId, params.zoneID, { forceSSLRedirectCode: body.code }),
  }));
  binder.bind(zoneRoutes.setZoneInvalidDomainLimitCount, async ({ params, body }, { caller }) => ({
    data: await zones.changeSettings(caller.operatorId, params.zoneID, { invalidDomainLimitCount: body.count }),
  }));
  binder.bind(zoneRoutes.setZoneTlsLimitCount, async ({ params, body }, { caller }) => ({
    data: await zones.changeSettings(caller.operatorId, params.zoneID, { tlsLimitCount: body.count }),
  }));
  binder.bind(zoneRoutes.setZoneChallengeWorkBits, async ({ params, body }, { caller }) => ({
    data: await zones.changeSettings(caller.operatorId, params.zoneID, { challengeWorkBits: body.bits }),
  }));
  binder.bind(zoneRoutes.moveNodesToZone, async ({ body }, { caller }) => {
    await zones.moveNodes(caller.operatorId, body.nodeIDs, body.zoneID);
  });
  binder.bind(zoneRoutes.initializeNodes, async ({ body }, { caller }) => {
    await zones.initializeNodes(caller.operatorId, body.ids, body.zoneID, body.groupID);
  });
}
