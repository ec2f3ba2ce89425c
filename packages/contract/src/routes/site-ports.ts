import { z } from 'zod';
import { STREAM_PROTOCOLS } from '../edge/stream-ports.js';
import { domainStatusSchema } from '../enums.js';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIdParam, zIds } from '../validators/ids.js';
import { zPort } from '../validators/zod.js';
import {
  hashTypeSchema,
  portUpstreamInputSchema,
  UPSTREAMS_PER_DOMAIN_MAX,
  upstreamRequests,
  upstreamSchema,
} from './domains.js';
import { siteParams } from './sites.js';
import { ZONE_PORT_TYPES } from './zone-settings.js';

/**
 * Layer-4 ports of a site (spec part 1 §7 "Ports"). A port is a number the site's nodes
 * listen on for TCP, UDP or both, and proxy as a byte stream (nginx's stream module) to the port's
 * upstreams — IP literals and ports, weighted, with backups, balanced round robin or by client IP.
 *
 * Rules decided here (the spec names only the calls and the codes):
 * - Ports belong to sites on a layer-4 product (port type 4): its groups of port type 4 serve them.
 *   A site on a layer-7 product holds domains, not ports (101023 Illegal Port Type).
 * - The zones of a site are the zones of its product's groups (main and backup). A port number is
 *   refused (101003 on the field, key `portInUse`) when it is a listen port of one of those zones
 *   (`zonePorts` lists them), when another port of the same operator's sites already uses it in
 *   one of those zones (whatever the protocol), or when the site already has it. A number one of
 *   those zones reserves (its `reservedPorts`, by default 22, 25, 53, 111, 123 and 323) or the
 *   node's own (9180, the agent's admin port) is `portReserved`. The operator's zone ports refuse
 *   a number a site port uses or the zone reserves.
 * - A node that cannot listen on a port (something else on the host holds it) leaves that port
 *   out, keeps applying every other change, and reports it: the port lists the nodes in
 *   `failedNodes`, the node lists it in its `failedPorts`.
 * - At most SITE_PORTS_MAX ports per site (101029), and at most the site's limitation `maxPorts`
 *   set by its operator (401007; 0 = unlimited).
 * - A port keeps one enabled upstream that is not a backup (401008).
 * - Batch create maps a listen range onto an upstream range of the same length, port by port
 *   (101011 Inconsistent Ports when the lengths differ); every upstream IP gets each port.
 * - `setting/ports` turns ports on (POST) or off (DELETE) in bulk; an off port is not listened on.
 * - Every write reaches the site's nodes with their next snapshot; a node reloads nginx (after
 *   `nginx -t`) for a port change, which keeps HTTP service up.
 * - Deleting a site that still has ports is refused (205004).
 */

/** Most layer-4 ports one site may have (101029 beyond). */
export const SITE_PORTS_MAX = 100;
/** Most ports one batch create may make. */
export const PORT_BATCH_MAX = 100;

export const sitePortInputSchema = z.object({
  port: zPort,
  protocol: z.enum(STREAM_PROTOCOLS).default('tcp'),
  /** 0 = weighted round robin, 1 = client IP hash (as a domain's hashType). */
  hashType: hashTypeSchema.default(0),
  status: domainStatusSchema.default(1),
  memo: z.string().max(256, 'tooLong').default(''),
  upstreams: z.array(portUpstreamInputSchema).min(1).max(UPSTREAMS_PER_DOMAIN_MAX),
});
export type SitePortInput = z.input<typeof sitePortInputSchema>;
/** A port as the server receives it (defaults applied). */
export type SitePortIn = z.output<typeof sitePortInputSchema>;
/** One upstream of a port as the server receives it. */
export type PortUpstreamIn = SitePortIn['upstreams'][number];

/** An edit: the settings given change; the upstreams are managed on their own calls. */
export const sitePortUpdateSchema = z.object({
  id: zId,
  port: zPort,
  protocol: z.enum(STREAM_PROTOCOLS).optional(),
  hashType: hashTypeSchema.optional(),
  status: domainStatusSchema.optional(),
  memo: z.string().max(256, 'tooLong').optional(),
});
export type SitePortUpdate = z.input<typeof sitePortUpdateSchema>;
export type SitePortUpdateIn = z.output<typeof sitePortUpdateSchema>;

export const sitePortSchema = z.object({
  id: z.number().int(),
  siteID: z.number().int(),
  port: z.number().int(),
  protocol: z.enum(STREAM_PROTOCOLS),
  hashType: hashTypeSchema,
  status: domainStatusSchema,
  memo: z.string(),
  upstreams: z.array(upstreamSchema),
  /**
   * Nodes that could not listen on this port at their latest report (another process on the
   * node holds it): the port does not work there until it is freed or changed.
   */
  failedNodes: z.array(z.object({ nodeID: z.number().int(), nodeName: z.string(), error: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SitePort = z.infer<typeof sitePortSchema>;

/** One upstream IP of a batch: it receives every port of the upstream range. */
const batchUpstreamIP = portUpstreamInputSchema.omit({ port: true, status: true });

export const sitePortBatchSchema = z.object({
  portFrom: zPort,
  portTo: zPort,
  upstreamPortFrom: zPort,
  upstreamPortTo: zPort,
  protocol: z.enum(STREAM_PROTOCOLS).default('tcp'),
  hashType: hashTypeSchema.default(0),
  memo: z.string().max(256, 'tooLong').default(''),
  upstreams: z.array(batchUpstreamIP).min(1).max(UPSTREAMS_PER_DOMAIN_MAX),
});
export type SitePortBatch = z.input<typeof sitePortBatchSchema>;
export type SitePortBatchIn = z.output<typeof sitePortBatchSchema>;

/**
 * A number a layer-4 port of the site cannot use in one of its zones: a zone listen port
 * (`http`, `https`) or a port the zone reserves, the node's own included (`reserved`).
 */
export const siteZonePortSchema = z.object({
  zoneID: z.number().int(),
  zoneName: z.string(),
  port: z.number().int(),
  portType: z.enum([...ZONE_PORT_TYPES, 'reserved']),
});
export type SiteZonePort = z.infer<typeof siteZonePortSchema>;

const portUpstreamRequests = upstreamRequests(siteParams.extend({ portId: zIdParam }), portUpstreamInputSchema);
const base = '/user/site/{siteId}';
const ids = zIds(SITE_PORTS_MAX);

const route = routeFamily({
  tags: ['ports'],
  read: tiers(['user'], 'user.siteSettings.read'),
  write: tiers(['user'], 'user.siteSettings.write'),
  params: siteParams,
});

export const listSitePorts = route.get('user.site.ports.list', `${base}/ports`, {
  summary: "The site's layer-4 ports by port number, paged; `port` finds one number, `protocol` and `status` filter",
  query: pageQuery.extend({
    port: z.coerce.number().int().min(1).max(65_535).optional(),
    protocol: z.enum(STREAM_PROTOCOLS).optional(),
    status: z.coerce.number().pipe(domainStatusSchema).optional(),
  }),
  response: pageOf(sitePortSchema),
});

export const addSitePorts = route.post('user.site.ports.add', `${base}/ports`, {
  codes: [101019, 101023, 101025, 101029, 401007, 401008],
  summary:
    'Adds layer-4 ports with their upstreams (all or none): 101023 on a layer-7 site, 401007 over the site limit, portInUse, portReserved',
  body: z.object({ ports: z.array(sitePortInputSchema).min(1).max(SITE_PORTS_MAX) }),
  response: dataOf(z.array(sitePortSchema)),
});

export const updateSitePort = route.put('user.site.port.update', `${base}/port`, {
  codes: [101025],
  summary: 'Changes one port (number, protocol, balance, status, memo)',
  body: sitePortUpdateSchema,
  response: dataOf(sitePortSchema),
});

export const deleteSitePorts = route.delete('user.site.ports.delete', `${base}/ports`, {
  summary: 'Deletes ports of the site with their upstreams (all or none)',
  body: z.object({ ids }),
  response: okReply,
});

export const batchCreateSitePorts = route.post('user.site.ports.batchCreate', `${base}/port/batchCreate`, {
  codes: [101011, 101019, 101023, 101025, 101029, 401007, 401008],
  summary:
    'Creates one port per number of a listen range, each to the same offset of the upstream range (101011 when the ranges differ in length)',
  body: sitePortBatchSchema,
  response: dataOf(z.array(sitePortSchema)),
});

export const listSitePortUpstreams = route.get('user.site.port.upstreams.list', `${base}/port/{portId}/upstreams`, {
  summary: "A port's upstreams",
  ...portUpstreamRequests.list,
  response: dataOf(z.array(upstreamSchema)),
});

export const addSitePortUpstreams = route.post('user.site.port.upstreams.add', `${base}/port/{portId}/upstreams`, {
  codes: [101029, 401008],
  summary: 'Adds upstreams to a port (at most 64 in all)',
  ...portUpstreamRequests.add,
  response: dataOf(z.array(upstreamSchema)),
});

export const deleteSitePortUpstreams = route.delete(
  'user.site.port.upstreams.delete',
  `${base}/port/{portId}/upstreams`,
  {
    codes: [101029, 401008],
    summary: 'Deletes upstreams of a port (401008 when no enabled one would remain)',
    ...portUpstreamRequests.delete,
    response: dataOf(z.array(upstreamSchema)),
  },
);

export const updateSitePortUpstream = route.put('user.site.port.upstream.update', `${base}/port/{portId}/upstream`, {
  codes: [101029, 401008],
  summary: 'Changes one upstream of a port (401008 when no enabled one would remain)',
  ...portUpstreamRequests.update,
  response: dataOf(upstreamSchema),
});

export const enableSitePorts = route.post('user.site.setting.ports.enable', `${base}/setting/ports`, {
  summary: 'Turns ports of the site on (all or none)',
  body: z.object({ ids }),
  response: okReply,
});

export const disableSitePorts = route.delete('user.site.setting.ports.disable', `${base}/setting/ports`, {
  summary: 'Turns ports of the site off (all or none); their nodes stop listening on them',
  body: z.object({ ids }),
  response: okReply,
});

export const listSiteZonePorts = route.get('user.site.zonePorts', `${base}/zonePorts`, {
  summary:
    "The listen and reserved ports of the zones serving the site (its product's groups): numbers a layer-4 port cannot use",
  response: dataOf(z.array(siteZonePortSchema)),
});

export const sitePortRoutes = {
  listSitePorts,
  addSitePorts,
  updateSitePort,
  deleteSitePorts,
  batchCreateSitePorts,
  listSitePortUpstreams,
  addSitePortUpstreams,
  deleteSitePortUpstreams,
  updateSitePortUpstream,
  enableSitePorts,
  disableSitePorts,
  listSiteZonePorts,
} as const;
