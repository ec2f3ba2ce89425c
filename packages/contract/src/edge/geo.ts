import { z } from 'zod';
import { GEO_CITY_ID_RE, GEO_COUNTRY_ID_RE, GEO_RULE_REGIONS_MAX, GEO_SHA256_RE } from '../routes/firewall-geos.js';
import { FIREWALL_LIST_RULES_PER_SITE, firewallUrlProblem } from '../routes/firewall-lists.js';
import { EDGE_RULE_ACTIONS } from './challenge.js';

/**
 * The geo rules' part of the data plane (routes/firewall-geos.ts; docs/decisions.md "Geo rules").
 * A rule's regions travel split: `countries` (alpha-2) and `cities` (GeoNames ids as numbers); the
 * edge looks the client address up once in the node's geo database (country iso_code and city
 * geoname_id) and a rule matches when either is listed. `white` inverts: the rule blocks when
 * neither is listed (an unknown address included).
 */
export const edgeGeoRuleSchema = z.strictObject({
  id: z.number().int().min(1).max(2_147_483_647),
  url: z.string().refine((url) => firewallUrlProblem(url) === null, 'not a firewall URL pattern'),
  white: z.boolean(),
  countries: z.array(z.string().regex(GEO_COUNTRY_ID_RE)).max(GEO_RULE_REGIONS_MAX),
  cities: z.array(z.number().int().min(1).max(4_294_967_295)).max(GEO_RULE_REGIONS_MAX),
  /** Deny, drop, drop + blacklist, or a challenge (a client with a pass for the site is not caught). */
  action: z.enum(EDGE_RULE_ACTIONS),
});
export type EdgeGeoRule = z.infer<typeof edgeGeoRuleSchema>;

/** Optional (absent = none), so firewalls built before geo rules need no change. */
export const edgeGeoRulesSchema = z.array(edgeGeoRuleSchema).max(FIREWALL_LIST_RULES_PER_SITE).optional();

/**
 * The operator's geo database: its SHA-256. The agent fetches the file (node API `GET
 * /geo/database`), checks the hash and keeps it as `<geo dir>/<sha256>.mmdb`, where Lua opens it.
 */
export const edgeGeoDatabaseSchema = z.string().regex(GEO_SHA256_RE).nullable().optional();

/** The region ids of a geo rule split as the edge reads them. */
export function splitGeoIds(ids: readonly string[]): { countries: string[]; cities: number[] } {
  return {
    countries: ids.filter((id) => GEO_COUNTRY_ID_RE.test(id)),
    cities: ids.filter((id) => GEO_CITY_ID_RE.test(id)).map(Number),
  };
}
