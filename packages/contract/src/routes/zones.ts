import { z } from 'zod';
import { zChallengeWorkBits } from '../edge/challenge.js';
import { orderBySchema, pageQuery } from '../http.js';
import { dataOf, defineRoute, okReply, pageOf, tiers } from '../route.js';
import { idNameSchema, zId, zIdParam, zIds } from '../validators/ids.js';
import { zMemo, zName } from '../validators/zod.js';

/** Zones: the operator's regions of edge nodes (spec part 2 §7 "Zones and groups"). */

export const zoneSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  memo: z.string(),
  /** Nodes placed in the zone. */
  nodeCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Zone = z.infer<typeof zoneSchema>;

const zoneBody = z.object({ name: zName, memo: zMemo });
export type ZoneIn = z.output<typeof zoneBody>;
const zoneUpdateBody = zoneBody.extend({ id: zId });
export type ZoneUpdateIn = z.output<typeof zoneUpdateBody>;
const zoneListQuery = pageQuery.extend({
  sortBy: z.enum(['name', 'createdAt', 'nodeCount']).default('createdAt'),
  orderBy: orderBySchema.default('desc'),
});
export type ZoneListQuery = z.output<typeof zoneListQuery>;
/** Path parameters of the calls under `client/zone/{zoneID}` (zone settings, groups, lines). */
export const zoneParams = z.object({ zoneID: zIdParam });
/** The nodes one call places or moves, all or none. */
const nodeIds = zIds(500);

export const listZones = defineRoute({
  id: 'client.zones.list',
  method: 'GET',
  path: '/client/zones',
  access: tiers(['client'], 'client.zones.read'),
  codes: [],
  summary: "The operator's zones, paged",
  tags: ['zones'],
  request: { query: zoneListQuery },
  response: pageOf(zoneSchema),
});

export const metaZones = defineRoute({
  id: 'client.zones.meta',
  method: 'GET',
  path: '/client/metaZones',
  access: tiers(['client'], 'client.zones.read'),
  codes: [],
  summary: 'Every zone as id and name, for pickers',
  tags: ['zones'],
  request: {},
  response: dataOf(z.array(idNameSchema)),
});

export const createZone = defineRoute({
  id: 'client.zone.create',
  method: 'POST',
  path: '/client/zone',
  access: tiers(['client'], 'client.zones.write'),
  codes: [101019, 201002, 201003],
  summary: 'Creates a zone (201002 when the name is taken)',
  tags: ['zones'],
  request: { body: zoneBody },
  response: dataOf(zoneSchema),
});

export const updateZone = defineRoute({
  id: 'client.zone.update',
  method: 'PUT',
  path: '/client/zone',
  access: tiers(['client'], 'client.zones.write'),
  codes: [201002],
  summary: 'Renames a zone or changes its memo',
  tags: ['zones'],
  request: { body: zoneUpdateBody },
  response: dataOf(zoneSchema),
});

export const deleteZone = defineRoute({
  id: 'client.zone.delete',
  method: 'DELETE',
  path: '/client/zone',
  access: tiers(['client'], 'client.zones.write'),
  codes: [201001, 203001],
  summary: 'Deletes a zone that holds no nodes (201001 otherwise)',
  tags: ['zones'],
  request: { body: z.object({ id: zId }) },
  response: okReply,
});

export const initializeNodes = defineRoute({
  id: 'client.nodes.initialize',
  method: 'POST',
  path: '/client/nodes/initialize',
  access: tiers(['client'], 'client.nodes.write'),
  codes: [203003, 401002],
  summary:
    'Places registered nodes in a zone and, when groupID is given, in that group of the zone on the default line; they then receive configuration',
  tags: ['nodes'],
  request: {
    body: z.object({
      ids: nodeIds,
      zoneID: zId,
      groupID: zId.optional(),
    }),
  },
  response: okReply,
});

export const moveNodesToZone = defineRoute({
  id: 'client.nodes.moveToZone',
  method: 'POST',
  path: '/client/node/moveToZone',
  access: tiers(['client'], 'client.nodes.write'),
  codes: [202003, 202004],
  summary:
    'Moves initialised nodes to another zone, all or none; a node still in a group of its zone is refused (202003), since groups belong to their zone',
  tags: ['nodes'],
  request: {
    body: z.object({
      nodeIDs: nodeIds,
      zoneID: zId,
    }),
  },
  response: okReply,
});

/**
 * Zone settings that shape what every node of the zone serves (spec part 2 §7 "Zone settings").
 * HTTP/3 is part of the spec but the nginx of Debian 12 has no QUIC: turning it on is refused with
 * a field error rather than accepted and silently ignored.
 */
export const FORCE_SSL_REDIRECT_CODES = [301, 302, 307, 308] as const;
/**
 * Zone limits (docs/decisions.md "Zone limits"), per client IP and node in a fixed 60-second
 * window, 0 = off. invalidDomainLimitCount: requests for a Host the node does not serve; the one
 * over it and every request of that IP for the next 300 s get their connection closed unanswered.
 * tlsLimitCount: full TLS handshakes (session resumptions are not counted); over it the handshake
 * is aborted until the window ends.
 */
export const ZONE_LIMIT_MAX = 100_000;
export const ZONE_LIMIT_WINDOW_SECONDS = 60;
export const ZONE_INVALID_DOMAIN_BAN_SECONDS = 300;
export const zoneLimitCount = z.number().int().min(0).max(ZONE_LIMIT_MAX);
export const zoneSettingsSchema = z.object({
  http2: z.boolean(),
  http3: z.boolean(),
  forceSSLRedirectCode: z.union(FORCE_SSL_REDIRECT_CODES.map((c) => z.literal(c))),
  invalidDomainLimitCount: zoneLimitCount,
  tlsLimitCount: zoneLimitCount,
  /** The proof of work of the zone's challenge pages, in bits (edge/challenge.ts). */
  challengeWorkBits: zChallengeWorkBits,
});
export type ZoneSettings = z.infer<typeof zoneSettingsSchema>;
export const getZoneSettings = defineRoute({
  id: 'client.zone.settings',
  method: 'GET',
  path: '/client/zone/{zoneID}/setting',
  access: tiers(['client'], 'client.settings.read'),
  codes: [],
  summary:
    "A zone's listen settings: HTTP/2, HTTP/3, the force-SSL redirect code and the per-IP limits on unknown hosts and TLS handshakes",
  tags: ['zones'],
  request: { params: zoneParams },
  response: dataOf(zoneSettingsSchema),
});

export const setZoneHttp2 = defineRoute({
  id: 'client.zone.setting.http2',
  method: 'PUT',
  path: '/client/zone/{zoneID}/setting/http2',
  access: tiers(['client'], 'client.settings.write'),
  codes: [],
  summary: "Turns HTTP/2 on or off on the zone's HTTPS ports (the nodes reload nginx)",
  tags: ['zones'],
  request: { params: zoneParams, body: z.object({ enable: z.boolean() }) },
  response: dataOf(zoneSettingsSchema),
});

export const setZoneHttp3 = defineRoute({
  id: 'client.zone.setting.http3',
  method: 'PUT',
  path: '/client/zone/{zoneID}/setting/http3',
  access: tiers(['client'], 'client.settings.write'),
  codes: [],
  summary: "HTTP/3: only `false` is accepted, the nodes' nginx has no QUIC (101003 on `enable`)",
  tags: ['zones'],
  request: { params: zoneParams, body: z.object({ enable: z.boolean() }) },
  response: dataOf(zoneSettingsSchema),
});

export const setZoneForceSSLRedirectCode = defineRoute({
  id: 'client.zone.setting.forceSSLRedirectCode',
  method: 'PUT',
  path: '/client/zone/{zoneID}/setting/forceSSLRedirectCode',
  access: tiers(['client'], 'client.settings.write'),
  codes: [],
  summary: 'The status of the redirect to HTTPS for force-SSL domains: 301, 302, 307 or 308',
  tags: ['zones'],
  request: { params: zoneParams, body: z.object({ code: zoneSettingsSchema.shape.forceSSLRedirectCode }) },
  response: dataOf(zoneSettingsSchema),
});

export const setZoneInvalidDomainLimitCount = defineRoute({
  id: 'client.zone.setting.invalidDomainLimitCount',
  method: 'PUT',
  path: '/client/zone/{zoneID}/setting/invalidDomainLimitCount',
  access: tiers(['client'], 'client.settings.write'),
  codes: [],
  summary:
    'Requests for hosts the node does not serve allowed per client IP and node in 60 s (0..100000, 0 = off); the IP is then cut off from the node for 300 s',
  tags: ['zones'],
  request: { params: zoneParams, body: z.object({ count: zoneLimitCount }) },
  response: dataOf(zoneSettingsSchema),
});

export const setZoneTlsLimitCount = defineRoute({
  id: 'client.zone.setting.tlsLimitCount',
  method: 'PUT',
  path: '/client/zone/{zoneID}/setting/tlsLimitCount',
  access: tiers(['client'], 'client.settings.write'),
  codes: [],
  summary:
    'Full TLS handshakes allowed per client IP and node in 60 s (0..100000, 0 = off); further handshakes are aborted until the window ends',
  tags: ['zones'],
  request: { params: zoneParams, body: z.object({ count: zoneLimitCount }) },
  response: dataOf(zoneSettingsSchema),
});

export const setZoneChallengeWorkBits = defineRoute({
  id: 'client.zone.setting.challengeWorkBits',
  method: 'PUT',
  path: '/client/zone/{zoneID}/setting/challengeWorkBits',
  access: tiers(['client'], 'client.settings.write'),
  codes: [],
  summary:
    "The proof of work the zone's shield, click-to-verify and slider pages ask, in bits (16..24, default 21); each bit doubles a visitor's wait",
  tags: ['zones'],
  request: { params: zoneParams, body: z.object({ bits: zChallengeWorkBits }) },
  response: dataOf(zoneSettingsSchema),
});

export const zoneRoutes = {
  listZones,
  metaZones,
  createZone,
  updateZone,
  deleteZone,
  initializeNodes,
  moveNodesToZone,
  getZoneSettings,
  setZoneHttp2,
  setZoneChallengeWorkBits,
  setZoneHttp3,
  setZoneForceSSLRedirectCode,
  setZoneInvalidDomainLimitCount,
  setZoneTlsLimitCount,
} as const;
