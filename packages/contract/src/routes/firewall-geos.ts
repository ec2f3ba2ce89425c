import { z } from 'zod';
import { geoRegion } from '../geo.js';
import { dataOf, nodeAccess, okReply, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zMemo } from '../validators/zod.js';
import { CHALLENGE_OR_BLOCK_TYPES, firewallUrlSchema } from './firewall-lists.js';

/**
 * The site firewall's geo rules (spec part 1 §2 "Regional rules: black/white flag, regions, URL,
 * protection mode, enabled"; cdnray-behaviour.md §5.3) and the operator's geo database they are
 * judged with (docs/decisions.md "Geo rules").
 *
 * A rule covers the requests whose absolute URL its `urlRegex` finds a match in (as every firewall
 * kind, routes/firewall-lists.ts). A black rule (`isBlack`) blocks a covered request whose region
 * is one of `geoIDs`; a white rule blocks a covered request whose region is none of them (an
 * address the database does not know is in no region). The first enabled rule that blocks, oldest
 * first, applies its mode: DENY answers 403, DROP closes the connection. They run after the
 * blacklist and before the user-agent rules; a whitelisted client skips them. A node without a geo
 * database lets every request through them (and says so in its error log).
 *
 * A region id is a country's ISO 3166-1 alpha-2 code (`CN`), or a city's GeoNames id as decimal
 * digits (`1816670`): cities exist only while the operator's database is a City database.
 */

/** Most regions one geo rule lists (201003 beyond). */
export const GEO_RULE_REGIONS_MAX = 500;
/** A country's region id. */
export const GEO_COUNTRY_ID_RE = /^[A-Z]{2}$/;
/** A city's region id: its GeoNames id. */
export const GEO_CITY_ID_RE = /^[1-9][0-9]{0,9}$/;

/** Whether `id` has the form of a region id and, for a country, names one (cities are checked against the database). */
export function geoIdProblem(id: string): 'wrongFormat' | null {
  if (GEO_COUNTRY_ID_RE.test(id)) return geoRegion(id) ? null : 'wrongFormat';
  if (GEO_CITY_ID_RE.test(id) && Number(id) <= 4_294_967_295) return null;
  return 'wrongFormat';
}

/**
 * The geo rules' protection modes: the five challenges, DENY (403), DROP and DROP + Blacklist
 * (firewall-lists.ts CHALLENGE_OR_BLOCK_TYPES), as the blacklist's.
 */
export const GEO_BLOCK_TYPES = CHALLENGE_OR_BLOCK_TYPES;

export const geoRuleInputSchema = z.object({
  isBlack: z.boolean({ error: 'required' }),
  // The bound here only keeps bodies small; the rule's own limit answers 201003 (GEO_RULE_REGIONS_MAX).
  geoIDs: z
    .array(
      z.string().refine((id) => geoIdProblem(id) === null, { message: 'wrongFormat' }),
      { error: 'required' },
    )
    .min(1, { message: 'required' })
    .max(10_000),
  urlRegex: firewallUrlSchema,
  blockType: z.literal(GEO_BLOCK_TYPES, { error: 'wrongFormat' }),
  enabled: z.boolean().default(true),
  memo: zMemo,
});
export type GeoRuleInput = z.input<typeof geoRuleInputSchema>;
export type GeoRuleIn = z.output<typeof geoRuleInputSchema>;

export const geoRuleSchema = z.object({
  id: z.number().int(),
  siteID: z.number().int(),
  isBlack: z.boolean(),
  geoIDs: z.array(z.string()),
  urlRegex: z.string(),
  blockType: z.number().int(),
  enabled: z.boolean(),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type GeoRule = z.infer<typeof geoRuleSchema>;

// The operator's geo database.

/** Largest geo database accepted (GeoLite2 City is ~60 MB). */
export const GEO_DATABASE_MAX_BYTES = 128 * 1024 * 1024;
export const GEO_DATABASE_KINDS = ['country', 'city'] as const;
export type GeoDatabaseKind = (typeof GEO_DATABASE_KINDS)[number];
export const GEO_SHA256_RE = /^[0-9a-f]{64}$/;

/** What the operator's geo and ASN databases both record of their file. */
export const mmdbFileSchema = z.object({
  /** SHA-256 of the file (hex): what nodes fetch and check (the geo database). */
  sha256: z.string(),
  /** The metadata's `database_type`, e.g. `GeoLite2-City`, `GeoLite2-ASN`. */
  databaseType: z.string(),
  /** When the database was built (its metadata's build_epoch). */
  builtAt: z.string(),
  ipVersion: z.number().int(),
  size: z.number().int(),
  uploadedAt: z.string(),
});
export type MmdbFileRecord = z.infer<typeof mmdbFileSchema>;

export const geoDatabaseSchema = mmdbFileSchema.extend({
  /** What the rules can use: countries only, or countries and cities. */
  kind: z.enum(GEO_DATABASE_KINDS),
  /** How many cities the tree offers (0 for a Country database). */
  cities: z.number().int(),
});
export type GeoDatabase = z.infer<typeof geoDatabaseSchema>;

const route = routeFamily({
  tags: ['firewall'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
});

export const getGeoDatabase = route.get('client.setting.geoDatabase.get', '/client/setting/geoDatabase', {
  summary: "The operator's geo database (MaxMind DB format) that the geo rules use on its nodes, or null",
  response: dataOf(geoDatabaseSchema.nullable()),
});

export const uploadGeoDatabase = route.put('client.setting.geoDatabase.upload', '/client/setting/geoDatabase', {
  bodyType: 'multipart',
  summary:
    'Installs a MaxMind DB file (GeoLite2/GeoIP2 or DB-IP Country or City) as the file part `file`; ' +
    'it replaces the previous one and reaches the nodes without a reload (101003 naming `file` when it is not one)',
  body: z.object({}),
  response: dataOf(geoDatabaseSchema),
});

export const deleteGeoDatabase = route.delete('client.setting.geoDatabase.delete', '/client/setting/geoDatabase', {
  summary: "Removes the operator's geo database: geo rules then let every request through",
  response: okReply,
});

export const getNodeGeoDatabase = route.get('edge.geoDatabase', '/geo/database', {
  api: 'edge',
  access: nodeAccess,
  codes: [101018],
  summary:
    "The operator's geo database file, as bytes (application/octet-stream); 101018 when `sha256` is not the current one",
  tags: ['edge'],
  query: z.object({ sha256: z.string().regex(GEO_SHA256_RE) }),
  response: z.string(),
  reply: 'raw',
});

export const geoDatabaseRoutes = { getGeoDatabase, uploadGeoDatabase, deleteGeoDatabase, getNodeGeoDatabase } as const;

// The operator's ASN database: the second slot, beside the geo database (docs/decisions.md "ASN database").

export const asnDatabaseSchema = mmdbFileSchema.extend({
  /** How many autonomous systems its records name. */
  asns: z.number().int(),
});
export type AsnDatabase = z.infer<typeof asnDatabaseSchema>;

export const getAsnDatabase = route.get('client.setting.asnDatabase.get', '/client/setting/asnDatabase', {
  summary:
    "The operator's ASN database (MaxMind DB format) that names the autonomous system of layer-4 sources, or null",
  response: dataOf(asnDatabaseSchema.nullable()),
});

export const uploadAsnDatabase = route.put('client.setting.asnDatabase.upload', '/client/setting/asnDatabase', {
  bodyType: 'multipart',
  summary:
    'Installs a MaxMind DB file of autonomous systems (GeoLite2-ASN, DB-IP ASN, or records with `asn`) as the ' +
    'file part `file`, replacing the previous one; the control plane looks the ASN of layer-4 sources up in it ' +
    'as their counters arrive (101003 naming `file` when it is not one)',
  body: z.object({}),
  response: dataOf(asnDatabaseSchema),
});

export const deleteAsnDatabase = route.delete('client.setting.asnDatabase.delete', '/client/setting/asnDatabase', {
  summary: "Removes the operator's ASN database: layer-4 sources counted from then on have ASN 0 (unknown)",
  response: okReply,
});

export const asnDatabaseRoutes = { getAsnDatabase, uploadAsnDatabase, deleteAsnDatabase } as const;
