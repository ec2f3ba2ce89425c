import { z } from 'zod';
import { orderBySchema, pageQuery } from '../http.js';
import { nodeAccess, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIdParam, zIds } from '../validators/ids.js';
import { isIP } from '../validators/ip.js';
import { queryList } from './sites.js';

/**
 * The block list (spec part 2 §3 "Blocked IPs"; cdnray-behaviour.md §6): every client address that
 * a rule with the DROP + Blacklist mode (enums.ts FIREWALL_ACTIONS.dropBlacklist) caught. The edge
 * drops the rule's request, and every later request of that address to the site, for the block's
 * duration: the rule's own `blockSeconds` where it has one above 0 (per-second limits), else
 * {@link BLOCK_LIST_DEFAULT_SECONDS}. Each node blocks what it saw (as each node counts its own
 * requests) and reports it; the control plane lists the blocks of every node, and an unblock reaches
 * each node that holds the address through the node command channel (node-commands.ts `unblock`)
 * within a second. The edge checks the block list before every other firewall rule
 * (docs/decisions.md "The block list").
 */

/** How long a DROP + Blacklist block lasts when its rule names no duration of its own. */
export const BLOCK_LIST_DEFAULT_SECONDS = 3600;
/** Longest block a rule can ask for (a per-second limit's blockSeconds bound). */
export const BLOCK_LIST_MAX_SECONDS = 31_536_000;
/** Most blocks one report of a node carries (the agent sends more in several). */
export const BLOCK_REPORT_MAX = 1000;
/** Most addresses one unblock call names. */
export const BLOCK_IDS_MAX = 1000;

/** The rule kinds whose DROP + Blacklist mode feeds the block list: a block's cause. */
export const BLOCK_CAUSES = [
  'blacklist',
  'geo',
  'userAgent',
  'intervalLimit',
  'secondLimit',
  'antiCc',
  // IP trust protection (routes/firewall-reputation.ts): its report names the site as the rule, the list no rule.
  'reputation',
  // A Lua ACL rule (routes/site-module-acl.ts): its report names the ACL rule.
  'acl',
  // A flood escalated to the kernel (routes/firewall-l4.ts l4EscalationSchema): the address kept being
  // refused at layer 7; its report names the site as the rule, the list no rule.
  'escalated',
] as const;
export const blockCauseSchema = z.enum(BLOCK_CAUSES);
export type BlockCause = z.infer<typeof blockCauseSchema>;

/** A client address as the edge reports it and as a filter names it: one IPv4 or IPv6 address. */
export const blockedIpSchema = z
  .string()
  .max(45)
  .refine((s) => isIP(s), { message: 'wrongFormat' });

export const BLOCK_SORT_FIELDS = ['blockedAt', 'expiresAt', 'ip'] as const;

export const blockedIpEntrySchema = z.object({
  id: z.number().int(),
  ip: z.string(),
  siteID: z.number().int(),
  siteName: z.string(),
  /** The rule kind whose DROP + Blacklist added it, and the rule (null once the rule was deleted). */
  cause: blockCauseSchema,
  ruleID: z.number().int().nullable(),
  nodeID: z.number().int(),
  nodeName: z.string(),
  zoneID: z.number().int().nullable(),
  zoneName: z.string(),
  blockedAt: z.string(),
  expiresAt: z.string(),
});
export type BlockedIpEntry = z.infer<typeof blockedIpEntrySchema>;

/** The operator's row adds whose site it is. */
export const clientBlockedIpEntrySchema = blockedIpEntrySchema.extend({ userAccount: z.string() });
export type ClientBlockedIpEntry = z.infer<typeof clientBlockedIpEntrySchema>;

const blockListQuery = pageQuery.extend({
  sortBy: z.enum(BLOCK_SORT_FIELDS).default('blockedAt'),
  orderBy: orderBySchema.default('desc'),
  siteID: zIdParam.optional(),
  /** Addresses to show (any of). */
  ips: queryList(blockedIpSchema, 100),
  /** Causes to show (any of). */
  causes: queryList(blockCauseSchema, BLOCK_CAUSES.length),
  /** Blocks made by the nodes of this zone. */
  zoneID: zIdParam.optional(),
});
export type BlockListQuery = z.output<typeof blockListQuery>;

const blockIds = z.object({ ids: zIds(BLOCK_IDS_MAX) });

const route = routeFamily({
  tags: ['firewall'],
  read: tiers(['user'], 'user.firewall.read'),
  write: tiers(['user'], 'user.firewall.write'),
});

export const listBlockedIps = route.get('user.blockIPs.list', '/user/blockIPs', {
  summary:
    "The customer's blocked addresses that have not expired, paged; filtered by site, addresses, causes and the blocking node's zone",
  query: blockListQuery,
  response: pageOf(blockedIpEntrySchema),
});

export const unblockIps = route.delete('user.blockIPs.delete', '/user/blockIPs', {
  summary:
    'Unblocks these entries on the nodes that hold them (all or none: an id of another customer or an unknown one answers 101018)',
  body: blockIds,
  response: okReply,
});

export const listClientBlockedIps = route.get('client.blockIPs.list', '/client/blockIPs', {
  access: tiers(['client'], 'client.sites.read'),
  summary: "The blocked addresses of the operator's sites that have not expired, paged, with the customer's account",
  query: blockListQuery.extend({ userID: zIdParam.optional() }),
  response: pageOf(clientBlockedIpEntrySchema),
});

export const clientUnblockIps = route.delete('client.blockIPs.delete', '/client/blockIPs', {
  access: tiers(['client'], 'client.sites.write'),
  summary: "Unblocks these entries of the operator's sites on the nodes that hold them (all or none, 101018)",
  body: blockIds,
  response: okReply,
});

/** One block as a node reports it. Times are Unix seconds of the node's clock. */
export const edgeBlockReportSchema = z.strictObject({
  siteId: zId,
  ip: blockedIpSchema,
  cause: blockCauseSchema,
  ruleId: zId,
  blockedAt: z.number().int().min(0).max(4_102_444_800),
  expiresAt: z.number().int().min(0).max(4_102_444_800),
});
export type EdgeBlockReport = z.infer<typeof edgeBlockReportSchema>;

export const reportNodeBlocks = route.post('edge.blocks', '/blocks', {
  api: 'edge',
  access: nodeAccess,
  summary:
    'A node reports the addresses its DROP + Blacklist rules blocked (a block of a site the node does not serve is left out, not refused: the agent would send it again)',
  tags: ['edge'],
  body: z.strictObject({ entries: z.array(edgeBlockReportSchema).min(1).max(BLOCK_REPORT_MAX) }),
  response: okReply,
});

export const blockListRoutes = {
  listBlockedIps,
  unblockIps,
  listClientBlockedIps,
  clientUnblockIps,
  reportNodeBlocks,
} as const;
