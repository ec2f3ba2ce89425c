import { type NginxTuning, zoneSettingRoutes as routes, ZONE_NGINX_SECTION_ROUTES } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { ZoneSettingsService } from './zone-settings.service.js';

export function bindZoneSettingRoutes(binder: Binder, settings: ZoneSettingsService): void {
  binder.bind(routes.getZoneResource, async ({ params }, { caller }) => ({
    data: await settings.resource(caller.operatorId, params.zoneID),
  }));
  binder.bind(routes.listZonePorts, async ({ params }, { caller }) => settings.ports(caller.operatorId, params.zoneID));
  binder.bind(routes.createZonePorts, async ({ params, body }, { caller }) =>
    settings.addPorts(caller.operatorId, params.zoneID, body.ports),
  );
  binder.bind(routes.updateZonePort, async ({ params, body }, { caller }) =>
    settings.updatePort(caller.operatorId, params.zoneID, body),
  );
  binder.bind(routes.deleteZonePorts, async ({ params, body }, { caller }) =>
    settings.deletePorts(caller.operatorId, params.zoneID, body.ids),
  );

  binder.bind(routes.getZoneReservedPorts, async ({ params }, { caller }) => ({
    data: await settings.reservedPorts(caller.operatorId, params.zoneID),
  }));
  binder.bind(routes.setZoneReservedPorts, async ({ params, body }, { caller }) => ({
    data: await settings.setReservedPorts(caller.operatorId, params.zoneID, body.ports),
  }));

  binder.bind(routes.getZoneNginx, async ({ params }, { caller }) => ({
    data: await settings.nginx(caller.operatorId, params.zoneID),
  }));
  binder.bind(routes.setZoneNginxEnable, async ({ params, body }, { caller }) => ({
    data: await settings.setNginxEnabled(caller.operatorId, params.zoneID, body.enable),
  }));

  const bindSection = <S extends keyof typeof ZONE_NGINX_SECTION_ROUTES>(section: S) => {
    const r = ZONE_NGINX_SECTION_ROUTES[section];
    binder.bind(r.get, async ({ params }, { caller }) => ({
      data: await settings.section(caller.operatorId, params.zoneID, section),
    }));
    binder.bind(r.put, async ({ params, body }, { caller }) => ({
      // TypeScript cannot correlate the union of section routes with S; the route parsed body.value
      // with this section's own schema.
      data: await settings.setSection(caller.operatorId, params.zoneID, section, body.value as NginxTuning[S]),
    }));
    binder.bind(r.delete, async ({ params }, { caller }) => ({
      data: await settings.resetSection(caller.operatorId, params.zoneID, section),
    }));
  };
  bindSection('worker');
  bindSection('http');
  bindSection('stream');
  bindSection('custom');
}
