import { z } from 'zod';
import { zChallengeWorkBits } from '../edge/challenge.js';
import { orderBySchema, pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
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

const route = routeFamily({
  tags: ['zones'],
  read: tiers(['client'], 'client.zones.read'),
  write: tiers(['client'], 'client.settings.write'),
});

export const listZones = route.get('client.zones.list', '/client/zones', {
  summary: "The operator's zones, paged",
  query: zoneListQuery,
  response: pageOf(zoneSchema),
});

export const metaZones = route.get('client.zones.meta', '/client/metaZones', {
  summary: 'Every zone as id and name, for pickers',
  response: dataOf(z.array(idNameSchema)),
});

export const createZone = route.post('client.zone.create', '/client/zone', {
  access: tiers(['client'], 'client.zones.write'),
  codes: [101019, 201002, 201003],
  summary: 'Creates a zone (201002 when the name is taken)',
  body: zoneBody,
  response: dataOf(zoneSchema),
});

export const updateZone = route.put('client.zone.update', '/client/zone', {
  access: tiers(['client'], 'client.zones.write'),
  codes: [201002],
  summary: 'Renames a zone or changes its memo',
  body: zoneUpdateBody,
  response: dataOf(zoneSchema),
});

export const deleteZone = route.delete('client.zone.delete', '/client/zone', {
  access: tiers(['client'], 'client.zones.write'),
  codes: [201001, 203001],
  summary: 'Deletes a zone that holds no nodes (201001 otherwise)',
  body: z.object({ id: zId }),
  response: okReply,
});

export const initializeNodes = route.post('client.nodes.initialize', '/client/nodes/initialize', {
  access: tiers(['client'], 'client.nodes.write'),
  codes: [203003, 401002],
  summary:
    'Places registered nodes in a zone and, when groupID is given, in that group of the zone on the default line; they then receive configuration',
  tags: ['nodes'],
  body: z.object({
    ids: nodeIds,
    zoneID: zId,
    groupID: zId.optional(),
  }),
  response: okReply,
});

export const moveNodesToZone = route.post('client.nodes.moveToZone', '/client/node/moveToZone', {
  access: tiers(['client'], 'client.nodes.write'),
  codes: [202003, 202004],
  summary:
    'Moves initialised nodes to another zone, all or none; a node still in a group of its zone is refused (202003), since groups belong to their zone',
  tags: ['nodes'],
  body: z.object({
    nodeIDs: nodeIds,
    zoneID: zId,
  }),
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
export const getZoneSettings = route.get('client.zone.settings', '/client/zone/{zoneID}/setting', {
  access: tiers(['client'], 'client.settings.read'),
  summary:
    "A zone's listen settings: HTTP/2, HTTP/3, the force-SSL redirect code and the per-IP limits on unknown hosts and TLS handshakes",
  params: zoneParams,
  response: dataOf(zoneSettingsSchema),
});

export const setZoneHttp2 = route.put('client.zone.setting.http2', '/client/zone/{zoneID}/setting/http2', {
  summary: "Turns HTTP/2 on or off on the zone's HTTPS ports (the nodes reload nginx)",
  params: zoneParams,
  body: z.object({ enable: z.boolean() }),
  response: dataOf(zoneSettingsSchema),
});

export const setZoneHttp3 = route.put('client.zone.setting.http3', '/client/zone/{zoneID}/setting/http3', {
  summary: "HTTP/3: only `false` is accepted, the nodes' nginx has no QUIC (101003 on `enable`)",
  params: zoneParams,
  body: z.object({ enable: z.boolean() }),
  response: dataOf(zoneSettingsSchema),
});

export const setZoneForceSSLRedirectCode = route.put(
  'client.zone.setting.forceSSLRedirectCode',
  '/client/zone/{zoneID}/setting/forceSSLRedirectCode',
  {
    summary: 'The status of the redirect to HTTPS for force-SSL domains: 301, 302, 307 or 308',
    params: zoneParams,
    body: z.object({ code: zoneSettingsSchema.shape.forceSSLRedirectCode }),
    response: dataOf(zoneSettingsSchema),
  },
);

export const setZoneInvalidDomainLimitCount = route.put(
  'client.zone.setting.invalidDomainLimitCount',
  '/client/zone/{zoneID}/setting/invalidDomainLimitCount',
  {
    summary:
      'Requests for hosts the node does not serve allowed per client IP and node in 60 s (0..100000, 0 = off); the IP is then cut off from the node for 300 s',
    params: zoneParams,
    body: z.object({ count: zoneLimitCount }),
    response: dataOf(zoneSettingsSchema),
  },
);

export const setZoneTlsLimitCount = route.put(
  'client.zone.setting.tlsLimitCount',
  '/client/zone/{zoneID}/setting/tlsLimitCount',
  {
    summary:
      'Full TLS handshakes allowed per client IP and node in 60 s (0..100000, 0 = off); further handshakes are aborted until the window ends',
    params: zoneParams,
    body: z.object({ count: zoneLimitCount }),
    response: dataOf(zoneSettingsSchema),
  },
);

export const setZoneChallengeWorkBits = route.put(
  'client.zone.setting.challengeWorkBits',
  '/client/zone/{zoneID}/setting/challengeWorkBits',
  {
    summary:
      "The proof of work the zone's shield, click-to-verify and slider pages ask, in bits (16..24, default 21); each bit doubles a visitor's wait",
    params: zoneParams,
    body: z.object({ bits: zChallengeWorkBits }),
    response: dataOf(zoneSettingsSchema),
  },
);

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
