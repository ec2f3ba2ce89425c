import { z } from 'zod';
import {
  type NginxTuning,
  type NginxTuningSection,
  nginxCustomSchema,
  nginxHttpSchema,
  nginxStreamSchema,
  nginxWorkerSchema,
} from '../edge/nginx-tuning.js';
import { dataOf, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIds } from '../validators/ids.js';
import { zPort } from '../validators/zod.js';
import { zoneParams } from './zones.js';

/**
 * A zone's listen ports and nginx settings (spec part 2 §7 "Zone settings": ports GET/POST/DELETE
 * and PUT port; nginx enable GET/PUT; nginx http/stream/worker/custom GET/PUT/DELETE). The spec
 * names the calls, not their paths: they sit under `client/zone/{zoneID}/setting/` beside HTTP/2.
 */

/** `http` ports serve plain HTTP, `https` ports TLS (certificates chosen by SNI). */
export const ZONE_PORT_TYPES = ['http', 'https'] as const;
export type ZonePortType = (typeof ZONE_PORT_TYPES)[number];
/** Per port type: what one nginx.conf renders (one generic server per port). */
export const ZONE_PORTS_MAX_PER_TYPE = 16;
/**
 * The node's own ports, refused always (zone listen ports, layer-4 ports, a zone's reserved list
 * holds them implicitly): the agent's default loopback admin port (nginx binds it on 127.0.0.1; a
 * public listen on it would collide). A node started with another admin port refuses a colliding
 * port itself and keeps serving the others.
 */
export const RESERVED_NODE_PORTS = [9180] as const;
/**
 * What a zone reserves until its operator says otherwise: ports the nodes' hosts commonly run
 * services on — SSH 22, SMTP 25, DNS 53, rpcbind 111, NTP 123 and chrony 323. A customer's
 * layer-4 port and a zone listen port may use none of them (`portReserved`).
 */
export const DEFAULT_RESERVED_PORTS: readonly number[] = [22, 25, 53, 111, 123, 323];
/** Most ports one zone's reserved list holds. */
export const RESERVED_PORTS_MAX = 256;
/** What a new zone listens on. */
export const DEFAULT_ZONE_PORTS: readonly { port: number; portType: ZonePortType }[] = [
  { port: 80, portType: 'http' },
  { port: 443, portType: 'https' },
];

export const zonePortSchema = z.object({
  id: z.number().int(),
  port: z.number().int(),
  portType: z.enum(ZONE_PORT_TYPES),
});
export type ZonePort = z.infer<typeof zonePortSchema>;
const portBody = z.object({ port: zPort, portType: z.enum(ZONE_PORT_TYPES) });
export type ZonePortIn = z.output<typeof portBody>;
const portUpdateBody = portBody.extend({ id: zId });
export type ZonePortUpdateIn = z.output<typeof portUpdateBody>;

const route = routeFamily({
  tags: ['zones'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
  params: zoneParams,
});

export const listZonePorts = route.get('client.zone.ports', '/client/zone/{zoneID}/setting/ports', {
  summary: "The zone's listen ports, by port number (at most 16 of each type, so never paged)",
  response: pageOf(zonePortSchema),
});

export const createZonePorts = route.post('client.zone.ports.create', '/client/zone/{zoneID}/setting/ports', {
  codes: [101025, 101029],
  summary: 'Adds listen ports, all or none (portInUse, portReserved; 101029 over 16 of a type); the nodes reload nginx',
  body: z.object({
    ports: z
      .array(portBody)
      .min(1)
      .max(2 * ZONE_PORTS_MAX_PER_TYPE),
  }),
  response: pageOf(zonePortSchema),
});

export const updateZonePort = route.put('client.zone.port.update', '/client/zone/{zoneID}/setting/port', {
  codes: [101025, 101029],
  summary: 'Changes one listen port or its type',
  body: portUpdateBody,
  response: pageOf(zonePortSchema),
});

export const deleteZonePorts = route.delete('client.zone.ports.delete', '/client/zone/{zoneID}/setting/ports', {
  codes: [101025],
  summary: 'Removes listen ports, all or none; a zone keeps at least one (lastPort)',
  body: z.object({ ids: zIds(64) }),
  response: pageOf(zonePortSchema),
});

/**
 * Ports the zone's nodes keep for other services on their hosts. `ports` is the operator's list
 * (DEFAULT_RESERVED_PORTS for a new zone); `nodePorts` are the node's own (RESERVED_NODE_PORTS),
 * reserved always. The zone's listen ports are taken too (`portInUse`), by the listen-port rule.
 */
export const zoneReservedPortsSchema = z.object({
  ports: z.array(z.number().int()),
  nodePorts: z.array(z.number().int()),
});
export type ZoneReservedPorts = z.infer<typeof zoneReservedPortsSchema>;

export const getZoneReservedPorts = route.get(
  'client.zone.ports.reserved',
  '/client/zone/{zoneID}/setting/reservedPorts',
  {
    summary: "Ports the zone's nodes keep for their hosts' own services: no layer-4 or listen port may use them",
    response: dataOf(zoneReservedPortsSchema),
  },
);

export const setZoneReservedPorts = route.put(
  'client.zone.ports.reserved.put',
  '/client/zone/{zoneID}/setting/reservedPorts',
  {
    summary:
      "Replaces the zone's reserved ports (at most 256); a number a listen port or a site's layer-4 port of the zone uses is refused (portInUse)",
    body: z.object({ ports: z.array(zPort).max(RESERVED_PORTS_MAX) }),
    response: dataOf(zoneReservedPortsSchema),
  },
);

/** The zone's nginx settings as the console reads them: the flag and the four stored sections. */
export const zoneNginxSchema = z.object({
  /** When off, the zone's nodes run on the defaults and the stored sections wait. */
  enable: z.boolean(),
  worker: nginxWorkerSchema,
  http: nginxHttpSchema,
  stream: nginxStreamSchema,
  custom: nginxCustomSchema,
});
export type ZoneNginx = z.infer<typeof zoneNginxSchema>;

export const getZoneNginx = route.get('client.zone.nginx', '/client/zone/{zoneID}/setting/nginx', {
  summary: "The zone's nginx settings: whether they apply, and the worker, http, stream and custom sections",
  response: dataOf(zoneNginxSchema),
});

export const setZoneNginxEnable = route.put('client.zone.nginx.enable', '/client/zone/{zoneID}/setting/nginx', {
  summary: "Applies the zone's nginx settings to its nodes (true) or returns them to the defaults (false)",
  body: z.object({ enable: z.boolean() }),
  response: dataOf(zoneNginxSchema),
});

/** GET, PUT (replace) and DELETE (back to the defaults) for one section. */
function sectionRoutes<S extends NginxTuningSection>(section: S, body: z.ZodType<NginxTuning[S]>) {
  const path = `/client/zone/{zoneID}/setting/nginx/${section}`;
  return {
    get: route.get(`client.zone.nginx.${section}`, path, {
      summary: `The zone's nginx ${section} settings (unset values are the defaults)`,
      response: dataOf(body),
    }),
    put: route.put(`client.zone.nginx.${section}.put`, path, {
      summary: `Replaces the zone's nginx ${section} settings; nodes check them with nginx -t and keep the running configuration when refused`,
      body: z.object({ value: body }),
      response: dataOf(body),
    }),
    delete: route.delete(`client.zone.nginx.${section}.delete`, path, {
      summary: `Returns the zone's nginx ${section} settings to the defaults`,
      response: dataOf(body),
    }),
  };
}

export const zoneNginxWorker = sectionRoutes('worker', nginxWorkerSchema);
export const zoneNginxHttp = sectionRoutes('http', nginxHttpSchema);
export const zoneNginxStream = sectionRoutes('stream', nginxStreamSchema);
export const zoneNginxCustom = sectionRoutes('custom', nginxCustomSchema);
export const ZONE_NGINX_SECTION_ROUTES = {
  worker: zoneNginxWorker,
  http: zoneNginxHttp,
  stream: zoneNginxStream,
  custom: zoneNginxCustom,
} as const;

/**
 * What the zone carries (spec part 2 §7 "Zone settings: resource GET"), counted from the database
 * at the time of the call. A site counts for the zone when its product has a group (main or backup)
 * in the zone; its domains and layer-4 ports count with it.
 */
export const zoneResourceSchema = z.object({
  /** Initialised nodes in the zone. */
  nodes: z.number().int(),
  /** Of those, the ones whose agent reported within the online window (NODE_ONLINE_WINDOW_SECONDS). */
  onlineNodes: z.number().int(),
  /** Of those, the ones switched on. */
  enabledNodes: z.number().int(),
  subNodes: z.number().int(),
  groups: z.number().int(),
  virtualNodes: z.number().int(),
  sites: z.number().int(),
  domains: z.number().int(),
  /** Layer-4 ports of the zone's sites (served by its port-type-4 groups). */
  sitePorts: z.number().int(),
  /** The zone's own HTTP and HTTPS listen ports. */
  listenPorts: z.number().int(),
});
export type ZoneResource = z.infer<typeof zoneResourceSchema>;

export const getZoneResource = route.get('client.zone.resource', '/client/zone/{zoneID}/setting/resource', {
  access: tiers(['client'], 'client.zones.read'),
  summary: 'Resource usage of the zone: nodes (online, on), sub-nodes, groups, virtual nodes, sites, domains, ports',
  response: dataOf(zoneResourceSchema),
});

export const zoneSettingRoutes = {
  getZoneResource,
  listZonePorts,
  createZonePorts,
  updateZonePort,
  deleteZonePorts,
  getZoneReservedPorts,
  setZoneReservedPorts,
  getZoneNginx,
  setZoneNginxEnable,
  getZoneNginxWorker: zoneNginxWorker.get,
  putZoneNginxWorker: zoneNginxWorker.put,
  deleteZoneNginxWorker: zoneNginxWorker.delete,
  getZoneNginxHttp: zoneNginxHttp.get,
  putZoneNginxHttp: zoneNginxHttp.put,
  deleteZoneNginxHttp: zoneNginxHttp.delete,
  getZoneNginxStream: zoneNginxStream.get,
  putZoneNginxStream: zoneNginxStream.put,
  deleteZoneNginxStream: zoneNginxStream.delete,
  getZoneNginxCustom: zoneNginxCustom.get,
  putZoneNginxCustom: zoneNginxCustom.put,
  deleteZoneNginxCustom: zoneNginxCustom.delete,
} as const;
