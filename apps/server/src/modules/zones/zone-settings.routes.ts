import { type NginxTuning, zoneSettingRoutes as routes, ZONE_NGINX_SECTION_ROUTES } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { ZoneSettingsService } from './zone-settings.service.js';

export function bindZoneSettingRoutes(binder: Binder, settings: ZoneSettingsService, nodes: NodesService): void {
  const operator = (caller: Caller | null) => nodes.operatorOf(requireCaller(caller).accountId);

  binder.bind(routes.getZoneResource, async ({ params }, { caller }) => ({
    data: await settings.resource(await operator(caller), params.zoneID),
  }));
  binder.bind(routes.listZonePorts, async ({ params }, { caller }) =>
    settings.ports(await operator(caller), params.zoneID),
  );
  binder.bind(routes.createZonePorts, async ({ params, body }, { caller, request }) =>
    settings.addPorts(await operator(caller), params.zoneID, body.ports, requestLocale(request)),
  );
  binder.bind(routes.updateZonePort, async ({ params, body }, { caller, request }) =>
    settings.updatePort(await operator(caller), params.zoneID, body, requestLocale(request)),
  );
  binder.bind(routes.deleteZonePorts, async ({ params, body }, { caller, request }) =>
    settings.deletePorts(await operator(caller), params.zoneID, body.ids, requestLocale(request)),
  );

  binder.bind(routes.getZoneReservedPorts, async ({ params }, { caller }) => ({
    data: await settings.reservedPorts(await operator(caller), params.zoneID),
  }));
  binder.bind(routes.setZoneReservedPorts, async ({ params, body }, { caller, request }) => ({
    data: await settings.setReservedPorts(await operator(caller), params.zoneID, body.ports, requestLocale(request)),
  }));

  binder.bind(routes.getZoneNginx, async ({ params }, { caller }) => ({
    data: await settings.nginx(await operator(caller), params.zoneID),
  }));
  binder.bind(routes.setZoneNginxEnable, async ({ params, body }, { caller }) => ({
    data: await settings.setNginxEnabled(await operator(caller), params.zoneID, body.enable),
  }));

  const bindSection = <S extends keyof typeof ZONE_NGINX_SECTION_ROUTES>(section: S) => {
    const r = ZONE_NGINX_SECTION_ROUTES[section];
    binder.bind(r.get, async ({ params }, { caller }) => ({
      data: await settings.section(await operator(caller), params.zoneID, section),
    }));
    binder.bind(r.put, async ({ params, body }, { caller }) => ({
      // TypeScript cannot correlate the union of section routes with S; the route parsed body.value
      // with this section's own schema.
      data: await settings.setSection(await operator(caller), params.zoneID, section, body.value as NginxTuning[S]),
    }));
    binder.bind(r.delete, async ({ params }, { caller }) => ({
      data: await settings.resetSection(await operator(caller), params.zoneID, section),
    }));
  };
  bindSection('worker');
  bindSection('http');
  bindSection('stream');
  bindSection('custom');
}
