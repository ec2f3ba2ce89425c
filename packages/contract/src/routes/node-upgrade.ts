import { z } from 'zod';
import {
  RELEASE_LIMITS,
  releaseManifestSchema,
  releasePathSchema,
  releaseVersionSchema,
} from '../edge/agent-release.js';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, nodeAccess, okReply, pageOf, tiers } from '../route.js';
import { zId, zIdParam, zIds } from '../validators/ids.js';
import { NODE_COMMAND_MESSAGE_MAX } from './node-commands.js';
import { nodeCommandSchema } from './node-operations.js';

/**
 * Node upgrade (spec part 2 §7 "Nodes"): the control plane serves the agent release of its own
 * version; `POST client/node/upgrade` queues an `upgrade` command per node; each agent downloads the
 * release over the signed node API, checks it, switches to it and restarts onto it, reporting each
 * stage; the node's next status report with the new version ends the upgrade. 202008 (Node Version
 * Does Not Match): the control plane has no release of its own version, or a node runs a newer one
 * (no silent downgrade). See docs/decisions.md "Node upgrade".
 */

/** Stages recorded in a node's upgrade log, in the order they happen. */
export const NODE_UPGRADE_STAGES = [
  'queued',
  'downloading',
  'verified',
  'switched',
  'restarting',
  'reported',
  'failed',
] as const;
export const nodeUpgradeStageSchema = z.enum(NODE_UPGRADE_STAGES);
export type NodeUpgradeStage = z.infer<typeof nodeUpgradeStageSchema>;
/** The stages an agent reports itself while it upgrades (the rest are the control plane's). */
export const AGENT_UPGRADE_STAGES = ['downloading', 'verified', 'switched'] as const;

export const nodeUpgradeLogSchema = z.object({
  id: z.number().int(),
  nodeId: z.number().int(),
  /** The upgrade command the entry belongs to. */
  commandId: z.number().int().nullable(),
  version: z.string(),
  stage: nodeUpgradeStageSchema,
  message: z.string(),
  createdAt: z.string(),
});
export type NodeUpgradeLog = z.infer<typeof nodeUpgradeLogSchema>;

export const getLatestNodeVersion = defineRoute({
  id: 'client.node.latestVersion',
  method: 'GET',
  path: '/client/node/latestVersion',
  access: tiers(['client'], 'client.nodes.read'),
  codes: [],
  summary:
    "The agent version nodes upgrade to (the control plane's own) and whether this control plane has that release to serve",
  tags: ['nodes'],
  request: {},
  response: dataOf(z.object({ version: z.string(), available: z.boolean() })),
});

export const upgradeNodes = defineRoute({
  id: 'client.node.upgrade',
  method: 'POST',
  path: '/client/node/upgrade',
  access: tiers(['client'], 'client.nodes.write'),
  codes: [202008],
  summary:
    'Queues an upgrade for initialised nodes (all or none): each agent fetches the latest release, checks it and restarts onto it; 202008 when there is no release to serve or a node runs a newer version',
  tags: ['nodes'],
  request: { body: z.object({ ids: zIds(500) }) },
  response: dataOf(z.array(nodeCommandSchema)),
});

export const listNodeUpgradeLogs = defineRoute({
  id: 'client.node.upgrade.logs',
  method: 'GET',
  path: '/client/node/{id}/upgrade/logs',
  access: tiers(['client'], 'client.nodes.read'),
  codes: [],
  summary: "A node's upgrade log: each stage of each upgrade, newest first",
  tags: ['nodes'],
  request: { params: z.object({ id: zIdParam }), query: pageQuery },
  response: pageOf(nodeUpgradeLogSchema),
});

export const getNodeRelease = defineRoute({
  id: 'edge.release',
  api: 'edge',
  method: 'GET',
  path: '/release',
  access: nodeAccess,
  codes: [202008],
  summary: 'The manifest of the agent release the control plane serves (its own version); 202008 when it has none',
  tags: ['edge'],
  request: {},
  response: dataOf(releaseManifestSchema),
});

export const getNodeReleaseFile = defineRoute({
  id: 'edge.releaseFile',
  api: 'edge',
  method: 'GET',
  path: '/release/file',
  access: nodeAccess,
  codes: [101018],
  summary:
    'One file of the served release, as bytes (application/octet-stream); 101018 for a version or path the manifest does not list',
  tags: ['edge'],
  request: { query: z.object({ version: releaseVersionSchema, path: releasePathSchema }) },
  response: z.string().max(RELEASE_LIMITS.fileBytes),
  reply: 'raw',
});

const upgradeProgressBody = z.object({
  commandId: zId,
  stage: z.enum(AGENT_UPGRADE_STAGES),
  message: z.string().max(NODE_COMMAND_MESSAGE_MAX),
});
export type NodeUpgradeProgressIn = z.output<typeof upgradeProgressBody>;

export const reportNodeUpgradeProgress = defineRoute({
  id: 'edge.upgradeProgress',
  api: 'edge',
  method: 'POST',
  path: '/upgrade/progress',
  access: nodeAccess,
  codes: [101018],
  summary: 'A node reports a stage of one of its running upgrade commands (101018 for any other command)',
  tags: ['edge'],
  request: { body: upgradeProgressBody },
  response: okReply,
});

export const nodeUpgradeRoutes = {
  getLatestNodeVersion,
  upgradeNodes,
  listNodeUpgradeLogs,
  getNodeRelease,
  getNodeReleaseFile,
  reportNodeUpgradeProgress,
} as const;
