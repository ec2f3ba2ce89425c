import { zoneRoutes } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { ZonesService } from './zones.service.js';

export function bindZoneRoutes(binder: Binder, zones: ZonesService, nodes: NodesService): void {
  const operator = (caller: Caller | null) => {
    return nodes.operatorOf(requireCaller(caller).accountId);
  };
  binder.bind(zoneRoutes.listZones, async ({ query }, { caller }) =>
    zones.list(await operator(caller), query, requireCaller(caller).zoneScope),
  );
  binder.bind(zoneRoutes.metaZones, async (_input, { caller }) => ({
    data: await zones.meta(await operator(caller), requireCaller(caller).zoneScope),
  }));
  binder.bind(zoneRoutes.createZone, async ({ body }, { caller }) => ({
    data: await zones.create(await operator(caller), body, requireCaller(caller).accountId),
  }));
  binder.bind(zoneRoutes.updateZone, async ({ body }, { caller }) => ({
    data: await zones.update(await operator(caller), body),
  }));
  binder.bind(zoneRoutes.deleteZone, async ({ body }, { caller }) => {
    await zones.delete(await operator(caller), body.id);
    return { data: true as const };
  });
  binder.bind(zoneRoutes.getZoneSettings, async ({ params }, { caller }) => ({
    data: await zones.settings(await operator(caller), params.zoneID),
  }));
  binder.bind(zoneRoutes.setZoneHttp2, async ({ params, body }, { caller }) => ({
    data: await zones.changeSettings(await operator(caller), params.zoneID, { http2: body.enable }),
  }));
  binder.bind(zoneRoutes.setZoneHttp3, async ({ params, body }, { caller, request }) => ({
    data: await zones.setHttp3(await operator(caller), params.zoneID, body.enable, requestLocale(request)),
  }));
  binder.bind(zoneRoutes.setZoneForceSSLRedirectCode, async ({ params, body }, { caller }) => ({
    data: await zones.changeSettings(await operator(caller), params.zoneID, { forceSSLRedirectCode: body.code }),
  }));
  binder.bind(zoneRoutes.setZoneInvalidDomainLimitCount, async ({ params, body }, { caller }) => ({
    data: await zones.changeSettings(await operator(caller), params.zoneID, { invalidDomainLimitCount: body.count }),
  }));
  binder.bind(zoneRoutes.setZoneTlsLimitCount, async ({ params, body }, { caller }) => ({
    data: await zones.changeSettings(await operator(caller), params.zoneID, { tlsLimitCount: body.count }),
  }));
  binder.bind(zoneRoutes.moveNodesToZone, async ({ body }, { caller }) => {
    await zones.moveNodes(await operator(caller), body.nodeIDs, body.zoneID);
    return { data: true as const };
  });
  binder.bind(zoneRoutes.initializeNodes, async ({ body }, { caller, request }) => {
    await zones.initializeNodes(await operator(caller), body.ids, body.zoneID, body.groupID, requestLocale(request));
    return { data: true as const };
  });
}
