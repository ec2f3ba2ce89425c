import { z } from 'zod';
import { releaseVersionSchema } from '../edge/agent-release.js';
import { CACHE_TASK_URLS_MAX, cacheUrlResultSchema, cacheUrlSchema } from '../edge/cache-urls.js';
import { dataOf, nodeAccess, okReply } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIdParam } from '../validators/ids.js';
import { BLOCK_IDS_MAX, BLOCK_LIST_MAX_SECONDS, blockedIpSchema } from './block-list.js';

/**
 * The command channel from the operator to a node's agent: the operator's calls queue commands
 * (reboot, reset, log rotation, upgrade, cache clear, URL purge, preheat), the agent long-polls for its
 * own, runs them and reports each result. A command moves queued → sent (handed to the agent) →
 * succeeded or failed; one the agent did not pick up, or did not answer, within
 * {@link NODE_COMMAND_EXPIRY_SECONDS} becomes expired.
 */

export const NODE_COMMAND_TYPES = [
  'reboot',
  'reset',
  'logRotate',
  'upgrade',
  'clearCache',
  'purgeUrls',
  'preheat',
  'unblock',
  'block',
] as const;
export const nodeCommandTypeSchema = z.enum(NODE_COMMAND_TYPES);
export type NodeCommandType = z.infer<typeof nodeCommandTypeSchema>;

export const NODE_COMMAND_STATUSES = ['queued', 'sent', 'succeeded', 'failed', 'expired'] as const;
export const nodeCommandStatusSchema = z.enum(NODE_COMMAND_STATUSES);
export type NodeCommandStatus = z.infer<typeof nodeCommandStatusSchema>;

/** A command waits this long to be picked up, and then this long again for its result. */
export const NODE_COMMAND_EXPIRY_SECONDS = 600;
/** Longest a command poll is held open when nothing is queued. */
export const EDGE_COMMANDS_MAX_WAIT_SECONDS = 30;
/** Longest result message a node may send (longer ones are cut by the agent). */
export const NODE_COMMAND_MESSAGE_MAX = 2000;

const noPayload = z.strictObject({});
/** URLs as the control plane already normalised them (edge/cache-urls.ts). */
const urls = z.array(cacheUrlSchema).min(1).max(CACHE_TASK_URLS_MAX);

/** A command as the agent receives it: one variant per type, each with its own payload allowlist. */
export const edgeCommandSchema = z.discriminatedUnion('type', [
  z.strictObject({ id: zId, type: z.literal('reboot'), payload: noPayload }),
  z.strictObject({ id: zId, type: z.literal('reset'), payload: noPayload }),
  z.strictObject({ id: zId, type: z.literal('logRotate'), payload: noPayload }),
  /** Fetch the control plane's release of `version` and restart onto it (see node-upgrade.ts). */
  z.strictObject({
    id: zId,
    type: z.literal('upgrade'),
    payload: z.strictObject({ version: releaseVersionSchema }),
  }),
  /**
   * Clear the node's whole cache: the control plane raised the node's cache epoch (part of every
   * cache key, carried by the snapshot); the agent makes sure a snapshot with at least `epoch` is
   * active and answers when it is.
   */
  z.strictObject({
    id: zId,
    type: z.literal('clearCache'),
    payload: z.strictObject({ epoch: z.number().int().min(1).max(2_147_483_647) }),
  }),
  /** Remove the cached entries of these URLs (per-URL results). */
  z.strictObject({ id: zId, type: z.literal('purgeUrls'), payload: z.strictObject({ urls }) }),
  /** Fetch these URLs through the node's own nginx so that its cache rules store them (per-URL results). */
  z.strictObject({ id: zId, type: z.literal('preheat'), payload: z.strictObject({ urls }) }),
  /** Take these addresses off the node's block list (routes/block-list.ts): each a site and an address. */
  z.strictObject({
    id: zId,
    type: z.literal('unblock'),
    payload: z.strictObject({
      entries: z
        .array(z.strictObject({ siteId: zId, ip: blockedIpSchema }))
        .min(1)
        .max(BLOCK_IDS_MAX),
    }),
  }),
  /**
   * Drop these addresses in the node's kernel for `seconds` each: floods another node serving the
   * same site escalated (routes/firewall-l4.ts l4EscalationSchema); lifted with `unblock`.
   */
  z.strictObject({
    id: zId,
    type: z.literal('block'),
    payload: z.strictObject({
      entries: z
        .array(
          z.strictObject({
            siteId: zId,
            ip: blockedIpSchema,
            seconds: z.number().int().min(1).max(BLOCK_LIST_MAX_SECONDS),
          }),
        )
        .min(1)
        .max(BLOCK_IDS_MAX),
    }),
  }),
]);
export type EdgeCommand = z.infer<typeof edgeCommandSchema>;

const route = routeFamily({ tags: ['edge'], read: nodeAccess, write: nodeAccess });

export const getNodeCommands = route.get('edge.commands', '/commands', {
  api: 'edge',
  summary:
    "Long poll for the node's queued commands: answers them at once (they become sent), else holds the " +
    'request up to `wait` seconds and answers an empty list when none was queued',
  query: z.object({ wait: z.coerce.number().int().min(0).max(EDGE_COMMANDS_MAX_WAIT_SECONDS).default(0) }),
  response: dataOf(z.array(edgeCommandSchema).max(100)),
});

const nodeCommandResultBody = z.object({
  ok: z.boolean(),
  message: z.string().max(NODE_COMMAND_MESSAGE_MAX),
  /** Per-URL outcomes of purgeUrls and preheat, in the order of the command's URLs. */
  results: z.array(cacheUrlResultSchema).max(CACHE_TASK_URLS_MAX).optional(),
});
export type NodeCommandResultIn = z.output<typeof nodeCommandResultBody>;

export const reportNodeCommandResult = route.post('edge.commandResult', '/commands/{id}/result', {
  api: 'edge',
  codes: [101018],
  summary: "A node reports the outcome of one of its sent commands (101018 for another node's or a finished one)",
  params: z.object({ id: zIdParam }),
  body: nodeCommandResultBody,
  response: okReply,
});

export const nodeCommandRoutes = { getNodeCommands, reportNodeCommandResult } as const;
