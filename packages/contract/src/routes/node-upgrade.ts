import { z } from 'zod';
import {
  RELEASE_LIMITS,
  releaseManifestSchema,
  releasePathSchema,
  releaseVersionSchema,
} from '../edge/agent-release.js';
import { pageQuery } from '../http.js';
import { dataOf, nodeAccess, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
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

const route = routeFamily({
  tags: ['nodes'],
  read: tiers(['client'], 'client.nodes.read'),
  write: tiers(['client'], 'client.nodes.write'),
});

export const getLatestNodeVersion = route.get('client.node.latestVersion', '/client/node/latestVersion', {
  summary:
    "The agent version nodes upgrade to (the control plane's own) and whether this control plane has that release to serve",
  response: dataOf(z.object({ version: z.string(), available: z.boolean() })),
});

export const upgradeNodes = route.post('client.node.upgrade', '/client/node/upgrade', {
  codes: [202008],
  summary:
    'Queues an upgrade for initialised nodes (all or none): each agent fetches the latest release, checks it and restarts onto it; 202008 when there is no release to serve or a node runs a newer version',
  body: z.object({ ids: zIds(500) }),
  response: dataOf(z.array(nodeCommandSchema)),
});

export const listNodeUpgradeLogs = route.get('client.node.upgrade.logs', '/client/node/{id}/upgrade/logs', {
  summary: "A node's upgrade log: each stage of each upgrade, newest first",
  params: z.object({ id: zIdParam }),
  query: pageQuery,
  response: pageOf(nodeUpgradeLogSchema),
});

export const getNodeRelease = route.get('edge.release', '/release', {
  api: 'edge',
  access: nodeAccess,
  codes: [202008],
  summary: 'The manifest of the agent release the control plane serves (its own version); 202008 when it has none',
  tags: ['edge'],
  response: dataOf(releaseManifestSchema),
});

export const getNodeReleaseFile = route.get('edge.releaseFile', '/release/file', {
  api: 'edge',
  access: nodeAccess,
  codes: [101018],
  summary:
    'One file of the served release, as bytes (application/octet-stream); 101018 for a version or path the manifest does not list',
  tags: ['edge'],
  query: z.object({ version: releaseVersionSchema, path: releasePathSchema }),
  response: z.string().max(RELEASE_LIMITS.fileBytes),
  reply: 'raw',
});

const upgradeProgressBody = z.object({
  commandId: zId,
  stage: z.enum(AGENT_UPGRADE_STAGES),
  message: z.string().max(NODE_COMMAND_MESSAGE_MAX),
});
export type NodeUpgradeProgressIn = z.output<typeof upgradeProgressBody>;

export const reportNodeUpgradeProgress = route.post('edge.upgradeProgress', '/upgrade/progress', {
  api: 'edge',
  access: nodeAccess,
  codes: [101018],
  summary: 'A node reports a stage of one of its running upgrade commands (101018 for any other command)',
  tags: ['edge'],
  body: upgradeProgressBody,
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
