import { z } from 'zod';
import { orderBySchema, pageQuery } from '../http.js';
import { dataOf, nodeAccess, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIds } from '../validators/ids.js';
import {
  ABUSE_IP_BLOCK_TYPES,
  ABUSE_IP_IMPORT_BODY_BYTES,
  ABUSE_IP_IMPORT_ERRORS_MAX,
  ABUSE_IP_IMPORT_ROWS_MAX,
  ABUSE_IP_SORT_FIELDS,
  ABUSE_IP_THRESHOLD_DEFAULT,
  ABUSE_IPS_ADD_MAX,
  ABUSE_IPS_MAX,
  abuseIPImportResultSchema,
  abuseIPImportSchema,
  abuseIPInputSchema,
  abuseIPSchema,
  zAbuseIPScore,
} from './abuse-ip-schemas.js';
import { GEO_SHA256_RE } from './firewall-geos.js';
import { siteParams } from './sites.js';

export type {
  AbuseIP,
  AbuseIPBounds,
  AbuseIPImportError,
  AbuseIPImportInput,
  AbuseIPImportMode,
  AbuseIPImportParse,
  AbuseIPImportRow,
  AbuseIPImportSummary,
  AbuseIPIn,
  AbuseIPInput,
  NormalizedAbuseIP,
} from './abuse-ip-schemas.js';
export {
  ABUSE_IP_BLOCK_TYPES,
  ABUSE_IP_IMPORT_BODY_BYTES,
  ABUSE_IP_IMPORT_ERRORS_MAX,
  ABUSE_IP_IMPORT_MODES,
  ABUSE_IP_IMPORT_ROWS_MAX,
  ABUSE_IP_IMPORT_TEXT_MAX,
  ABUSE_IP_SCORE_MAX,
  ABUSE_IP_SCORE_MIN,
  ABUSE_IP_SORT_FIELDS,
  ABUSE_IP_THRESHOLD_DEFAULT,
  ABUSE_IPS_ADD_MAX,
  ABUSE_IPS_MAX,
  abuseIPImportResultSchema,
  abuseIPImportSchema,
  abuseIPInputSchema,
  abuseIPProblem,
  abuseIPSchema,
  duplicateAbuseIPs,
  formatIP,
  normalizeAbuseIP,
  parseAbuseIPImport,
  zAbuseIPScore,
} from './abuse-ip-schemas.js';

/**
 * IP trust protection (spec part 1 §2 "IP trust protection (abuseIP, layer 7)", part 2 "abuse IPs
 * (with score)"; docs/decisions.md "IP trust protection (abuse IPs)").
 *
 * The operator keeps one reputation list for all its sites: addresses and CIDR blocks, each with a
 * score from 1 (barely suspicious) to 100 (certainly abusive), added by hand or imported from a CSV
 * or plain list. Each site chooses whether to use it (`enabled`), from which score on a client is
 * caught (`threshold`) and what it then gets (`blockType`: a challenge the edge serves, DENY, DROP
 * or DROP + Blacklist). A client whose address lies in an entry with a score at or above the
 * threshold gets the mode; where entries overlap, the highest score counts. The edge checks it
 * right after the blacklist, before the geo rules; a whitelisted client skips it.
 *
 * Entries are stored normalised: an address in its shortest form (IPv6 lower case, RFC 5952), a
 * CIDR block as its network address and prefix (`10.1.2.3/24` is `10.1.2.0/24`), a /32 or /128
 * block as the address alone, and an IPv4-mapped IPv6 address or block as IPv4 (the edge matches
 * such clients as IPv4). Two entries naming the same addresses that way are duplicates.
 */

const abuseIPListQuery = pageQuery.extend({
  /** An address: the entries that contain it; anything else: the entries whose text contains it. */
  ip: z.string().trim().max(64).optional(),
  sortBy: z.enum(ABUSE_IP_SORT_FIELDS).default('updatedAt'),
  orderBy: orderBySchema.default('desc'),
});
export type AbuseIPListQuery = z.output<typeof abuseIPListQuery>;

const route = routeFamily({
  tags: ['firewall'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
});

export const listAbuseIPs = route.get('client.abuseIPs.list', '/client/abuseIPs', {
  summary:
    "The operator's reputation list, paged; `ip` an address lists the entries containing it, other text the entries whose IP contains it",
  query: abuseIPListQuery,
  response: pageOf(abuseIPSchema),
});

export const addAbuseIPs = route.post('client.abuseIPs.add', '/client/abuseIPs', {
  codes: [101029],
  summary: `Adds entries to the reputation list (all or none; 101003 duplicateIP for an IP already listed; 101029 beyond ${ABUSE_IPS_MAX})`,
  body: z.object({ data: z.array(abuseIPInputSchema).min(1).max(ABUSE_IPS_ADD_MAX) }),
  response: dataOf(z.array(abuseIPSchema)),
});

export const updateAbuseIP = route.put('client.abuseIP.update', '/client/abuseIP', {
  summary: 'Replaces one entry of the reputation list (the body names it by id)',
  body: abuseIPInputSchema.extend({ id: z.number().int().positive() }),
  response: dataOf(abuseIPSchema),
});

export const deleteAbuseIPs = route.delete('client.abuseIPs.delete', '/client/abuseIPs', {
  summary: 'Deletes entries of the reputation list by id (all or none: an unknown id answers 101018)',
  body: z.object({ ids: zIds(ABUSE_IPS_ADD_MAX) }),
  response: okReply,
});

export const importAbuseIPs = route.post('client.abuseIPs.import', '/client/abuseIPs/import', {
  codes: [101029],
  bodyLimit: ABUSE_IP_IMPORT_BODY_BYTES,
  summary:
    `Imports CSV (ip,score[,memo]) or plain (ip) lines, merged into the list or replacing it, all or none: ` +
    `101003 names up to ${ABUSE_IP_IMPORT_ERRORS_MAX} bad lines (field \`text\`); at most ${ABUSE_IP_IMPORT_ROWS_MAX} rows, ` +
    `101029 when a merge would take the list beyond ${ABUSE_IPS_MAX}`,
  body: abuseIPImportSchema,
  response: dataOf(abuseIPImportResultSchema),
});

export const getNodeAbuseIPs = route.get('edge.abuseIPs', '/reputation/abuseIPs', {
  api: 'edge',
  access: nodeAccess,
  codes: [101018],
  summary:
    "The operator's reputation list as the edge reads it (edge/reputation.ts), application/octet-stream; 101018 when `sha256` is not the current one",
  tags: ['edge'],
  query: z.object({ sha256: z.string().regex(GEO_SHA256_RE) }),
  response: z.string(),
  reply: 'raw',
});

// The site setting.

export const abuseIPSettingSchema = z.object({
  enabled: z.boolean(),
  /** Clients whose address has a score at or above this get `blockType`. */
  threshold: z.number().int(),
  blockType: z.number().int(),
});
export type AbuseIPSetting = z.infer<typeof abuseIPSettingSchema>;

export const abuseIPSettingInputSchema = z.object({
  enabled: z.boolean({ error: 'required' }),
  threshold: zAbuseIPScore.default(ABUSE_IP_THRESHOLD_DEFAULT),
  blockType: z.literal(ABUSE_IP_BLOCK_TYPES, { error: 'wrongFormat' }),
});
export type AbuseIPSettingInput = z.input<typeof abuseIPSettingInputSchema>;
export type AbuseIPSettingIn = z.output<typeof abuseIPSettingInputSchema>;

/** What a site that never saved the setting has: off, the default threshold, DENY. */
export const DEFAULT_ABUSE_IP_SETTING: AbuseIPSetting = {
  enabled: false,
  threshold: ABUSE_IP_THRESHOLD_DEFAULT,
  blockType: 10,
};

export const getAbuseIPSetting = route.get(
  'user.site.firewall.abuseIP.get',
  '/user/site/{siteId}/firewall/setting/abuseIP',
  {
    access: tiers(['user'], 'user.firewall.read'),
    summary: "The site's IP trust protection: whether it is on, the score threshold and the protection mode",
    params: siteParams,
    response: dataOf(abuseIPSettingSchema),
  },
);

export const updateAbuseIPSetting = route.put(
  'user.site.firewall.abuseIP.update',
  '/user/site/{siteId}/firewall/setting/abuseIP',
  {
    access: tiers(['user'], 'user.firewall.write'),
    summary:
      "Sets the site's IP trust protection: clients whose address has an operator's reputation score at or above `threshold` get `blockType`",
    params: siteParams,
    body: abuseIPSettingInputSchema,
    response: dataOf(abuseIPSettingSchema),
  },
);

export const abuseIPRoutes = {
  listAbuseIPs,
  addAbuseIPs,
  updateAbuseIP,
  deleteAbuseIPs,
  importAbuseIPs,
  getNodeAbuseIPs,
} as const;

export const firewallReputationRoutes = { getAbuseIPSetting, updateAbuseIPSetting } as const;
