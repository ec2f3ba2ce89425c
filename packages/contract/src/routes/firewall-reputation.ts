import { z } from 'zod';
import { orderBySchema, pageQuery } from '../http.js';
import { dataOf, defineRoute, nodeAccess, okReply, pageOf, tiers } from '../route.js';
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

export const listAbuseIPs = defineRoute({
  id: 'client.abuseIPs.list',
  method: 'GET',
  path: '/client/abuseIPs',
  access: tiers(['client'], 'client.settings.read'),
  codes: [],
  summary:
    "The operator's reputation list, paged; `ip` an address lists the entries containing it, other text the entries whose IP contains it",
  tags: ['firewall'],
  request: { query: abuseIPListQuery },
  response: pageOf(abuseIPSchema),
});

export const addAbuseIPs = defineRoute({
  id: 'client.abuseIPs.add',
  method: 'POST',
  path: '/client/abuseIPs',
  access: tiers(['client'], 'client.settings.write'),
  codes: [101029],
  summary: `Adds entries to the reputation list (all or none; 101003 duplicateIP for an IP already listed; 101029 beyond ${ABUSE_IPS_MAX})`,
  tags: ['firewall'],
  request: { body: z.object({ data: z.array(abuseIPInputSchema).min(1).max(ABUSE_IPS_ADD_MAX) }) },
  response: dataOf(z.array(abuseIPSchema)),
});

export const updateAbuseIP = defineRoute({
  id: 'client.abuseIP.update',
  method: 'PUT',
  path: '/client/abuseIP',
  access: tiers(['client'], 'client.settings.write'),
  codes: [],
  summary: 'Replaces one entry of the reputation list (the body names it by id)',
  tags: ['firewall'],
  request: { body: abuseIPInputSchema.extend({ id: z.number().int().positive() }) },
  response: dataOf(abuseIPSchema),
});

export const deleteAbuseIPs = defineRoute({
  id: 'client.abuseIPs.delete',
  method: 'DELETE',
  path: '/client/abuseIPs',
  access: tiers(['client'], 'client.settings.write'),
  codes: [],
  summary: 'Deletes entries of the reputation list by id (all or none: an unknown id answers 101018)',
  tags: ['firewall'],
  request: { body: z.object({ ids: zIds(ABUSE_IPS_ADD_MAX) }) },
  response: okReply,
});

export const importAbuseIPs = defineRoute({
  id: 'client.abuseIPs.import',
  method: 'POST',
  path: '/client/abuseIPs/import',
  access: tiers(['client'], 'client.settings.write'),
  codes: [101029],
  bodyLimit: ABUSE_IP_IMPORT_BODY_BYTES,
  summary:
    `Imports CSV (ip,score[,memo]) or plain (ip) lines, merged into the list or replacing it, all or none: ` +
    `101003 names up to ${ABUSE_IP_IMPORT_ERRORS_MAX} bad lines (field \`text\`); at most ${ABUSE_IP_IMPORT_ROWS_MAX} rows, ` +
    `101029 when a merge would take the list beyond ${ABUSE_IPS_MAX}`,
  tags: ['firewall'],
  request: { body: abuseIPImportSchema },
  response: dataOf(abuseIPImportResultSchema),
});

export const getNodeAbuseIPs = defineRoute({
  id: 'edge.abuseIPs',
  api: 'edge',
  method: 'GET',
  path: '/reputation/abuseIPs',
  access: nodeAccess,
  codes: [101018],
  summary:
    "The operator's reputation list as the edge reads it (edge/reputation.ts), application/octet-stream; 101018 when `sha256` is not the current one",
  tags: ['edge'],
  request: { query: z.object({ sha256: z.string().regex(GEO_SHA256_RE) }) },
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

export const getAbuseIPSetting = defineRoute({
  id: 'user.site.firewall.abuseIP.get',
  method: 'GET',
  path: '/user/site/{siteId}/firewall/setting/abuseIP',
  access: tiers(['user'], 'user.firewall.read'),
  codes: [],
  summary: "The site's IP trust protection: whether it is on, the score threshold and the protection mode",
  tags: ['firewall'],
  request: { params: siteParams },
  response: dataOf(abuseIPSettingSchema),
});

export const updateAbuseIPSetting = defineRoute({
  id: 'user.site.firewall.abuseIP.update',
  method: 'PUT',
  path: '/user/site/{siteId}/firewall/setting/abuseIP',
  access: tiers(['user'], 'user.firewall.write'),
  codes: [],
  summary:
    "Sets the site's IP trust protection: clients whose address has an operator's reputation score at or above `threshold` get `blockType`",
  tags: ['firewall'],
  request: { params: siteParams, body: abuseIPSettingInputSchema },
  response: dataOf(abuseIPSettingSchema),
});

export const abuseIPRoutes = {
  listAbuseIPs,
  addAbuseIPs,
  updateAbuseIP,
  deleteAbuseIPs,
  importAbuseIPs,
  getNodeAbuseIPs,
} as const;

export const firewallReputationRoutes = { getAbuseIPSetting, updateAbuseIPSetting } as const;
