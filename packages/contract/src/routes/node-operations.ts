import { z } from 'zod';
import { cacheUrlResultSchema } from '../edge/cache-urls.js';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, okReply, pageOf, tiers } from '../route.js';
import { idNameSchema, zId, zIdParam, zIds } from '../validators/ids.js';
import { zName, zText } from '../validators/zod.js';
import { portTypeSchema } from './groups.js';
import { nodeCommandStatusSchema, nodeCommandTypeSchema } from './node-commands.js';
import { initializedNodeSchema, nodeSwitchSchema, nodeSystemSchema } from './nodes.js';
import { zoneParams } from './zones.js';

/**
 * The operator's node operations (spec part 2 §7 "Nodes"): commands to the agents (reboot, reset,
 * log rotation), per-node settings, system information and a zone's node list. Every bulk call is
 * all or none over the caller's initialised nodes: one id that is not one of them (or not in the
 * zone of the path) is 101018 and nothing is written.
 */

const ids = zIds(500);
const nodeParams = zoneParams.extend({ id: zIdParam });

/** A command as the operator sees it in a node's history. */
export const nodeCommandSchema = z.object({
  id: z.number().int(),
  nodeId: z.number().int(),
  type: nodeCommandTypeSchema,
  status: nodeCommandStatusSchema,
  /** What the agent reported (or why the command expired); '' while it runs. */
  message: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Per-URL outcomes of a URL purge or a preheat ([] for other commands and until answered). */
  results: z.array(cacheUrlResultSchema),
});
export type NodeCommand = z.infer<typeof nodeCommandSchema>;

const commandsReply = dataOf(z.array(nodeCommandSchema));

/** Reboot and reset name the zone in their path (spec: "zone node reboot and reset"). */
function zoneCommandRoute(id: string, path: string, summary: string) {
  return defineRoute({
    id,
    method: 'POST',
    path,
    access: tiers(['client'], 'client.nodes.write'),
    codes: [],
    summary,
    tags: ['nodes'],
    request: { params: zoneParams, body: z.object({ ids }) },
    response: commandsReply,
  });
}

export const rebootZoneNodes = zoneCommandRoute(
  'client.zone.nodes.reboot',
  '/client/zone/{zoneID}/node/reboot',
  'Queues a reboot for nodes of the zone: each agent restarts its nginx (a new master) and serves what it served',
);

export const resetZoneNodes = zoneCommandRoute(
  'client.zone.nodes.reset',
  '/client/zone/{zoneID}/node/reset',
  'Queues a reset for nodes of the zone: each agent drops its stored snapshots, fetches and applies its configuration again and restarts nginx',
);

export const rotateNodeLogs = defineRoute({
  id: 'client.nodes.logRotate',
  method: 'POST',
  path: '/client/nodes/logRotate',
  access: tiers(['client'], 'client.nodes.write'),
  codes: [],
  summary:
    "Queues a log rotation: each agent renames nginx's access and error logs, has nginx reopen fresh ones and keeps the last few",
  tags: ['nodes'],
  request: { body: z.object({ ids }) },
  response: commandsReply,
});

export const setNodeLogRotateTime = defineRoute({
  id: 'client.nodes.logRotateTime',
  method: 'PUT',
  path: '/client/nodes/logRotateTime',
  access: tiers(['client'], 'client.nodes.write'),
  codes: [202006],
  summary:
    'Sets the daily log rotation time (`HH:MM` UTC, null for none; 202006 for a time that is not one); it reaches the agents in their snapshot',
  tags: ['nodes'],
  // A string of the right size that is no time of day is the catalogue's 202006 (Invalid Node Time).
  request: { body: z.object({ ids, time: z.string().max(16).nullable() }) },
  response: okReply,
});

export const setNodeStatus = defineRoute({
  id: 'client.node.status',
  method: 'PATCH',
  path: '/client/node/status',
  access: tiers(['client'], 'client.nodes.write'),
  codes: [],
  summary: 'Switches nodes on or off: an off node stays connected but serves no site',
  tags: ['nodes'],
  request: { body: z.object({ ids, status: nodeSwitchSchema }) },
  response: okReply,
});

export const setNodeMemo = defineRoute({
  id: 'client.nodes.memo',
  method: 'PUT',
  path: '/client/nodes/memo',
  access: tiers(['client'], 'client.nodes.write'),
  codes: [],
  summary: 'Sets the memo of nodes',
  tags: ['nodes'],
  request: { body: z.object({ ids, memo: zText(256) }) },
  response: okReply,
});

export const setNodeMonitor = defineRoute({
  id: 'client.node.monitor',
  method: 'PATCH',
  path: '/client/node/monitor',
  access: tiers(['client'], 'client.nodes.write'),
  codes: [],
  summary: 'Sets whether monitoring watches the nodes',
  tags: ['nodes'],
  request: { body: z.object({ ids, monitor: z.boolean() }) },
  response: okReply,
});

export const setNodePortType = defineRoute({
  id: 'client.nodes.portType',
  method: 'PUT',
  path: '/client/nodes/portType',
  access: tiers(['client'], 'client.nodes.write'),
  codes: [202005],
  summary:
    'Sets the port type of nodes (7 sites, 4 layer-4); 202005 when a node still sits in a group of the other port type',
  tags: ['nodes'],
  request: { body: z.object({ ids, portType: portTypeSchema }) },
  response: okReply,
});

export const getNodeSystem = defineRoute({
  id: 'client.zone.node.system',
  method: 'GET',
  path: '/client/zone/{zoneID}/node/{id}/system',
  access: tiers(['client'], 'client.nodes.read'),
  codes: [],
  summary: "The node's latest system information as its agent reported it (null before the first report)",
  tags: ['nodes'],
  request: { params: nodeParams },
  response: dataOf(nodeSystemSchema.extend({ reportedAt: z.string() }).nullable()),
});

export const listNodeCommands = defineRoute({
  id: 'client.zone.node.commands',
  method: 'GET',
  path: '/client/zone/{zoneID}/node/{id}/commands',
  access: tiers(['client'], 'client.nodes.read'),
  codes: [],
  summary: "The node's commands, newest first, with their status and result",
  tags: ['nodes'],
  request: { params: nodeParams, query: pageQuery },
  response: pageOf(nodeCommandSchema),
});

export const listZoneNodes = defineRoute({
  id: 'client.zone.nodes',
  method: 'GET',
  path: '/client/zone/{zoneID}/nodes',
  access: tiers(['client'], 'client.zones.read'),
  codes: [],
  summary: 'Initialised nodes of a zone, paged',
  tags: ['nodes'],
  request: { params: zoneParams, query: pageQuery.extend({ value: z.string().max(256).optional() }) },
  response: pageOf(initializedNodeSchema),
});

export const metaZoneNodes = defineRoute({
  id: 'client.zone.metaNodes',
  method: 'GET',
  path: '/client/zone/{zoneID}/metaNodes',
  access: tiers(['client'], 'client.nodes.read'),
  codes: [],
  summary: 'Every node of a zone as id and name, for pickers',
  tags: ['nodes'],
  request: { params: zoneParams },
  response: dataOf(z.array(idNameSchema)),
});

export const renameZoneNode = defineRoute({
  id: 'client.zone.node.update',
  method: 'PATCH',
  path: '/client/zone/{zoneID}/node',
  access: tiers(['client'], 'client.nodes.write'),
  codes: [],
  summary: 'Renames a node of the zone',
  tags: ['nodes'],
  request: { params: zoneParams, body: z.object({ id: zId, name: zName }) },
  response: okReply,
});

export const removeZoneNode = defineRoute({
  id: 'client.zone.node.delete',
  method: 'DELETE',
  path: '/client/zone/{zoneID}/node',
  access: tiers(['client'], 'client.nodes.write'),
  codes: [202003, 202004],
  summary:
    'Takes a node out of the zone: it becomes uninitialised again (its agent keeps its credentials); 202003 while it sits in a group',
  tags: ['nodes'],
  request: { params: zoneParams, body: z.object({ id: zId }) },
  response: okReply,
});

export const nodeOperationRoutes = {
  rebootZoneNodes,
  resetZoneNodes,
  rotateNodeLogs,
  setNodeLogRotateTime,
  setNodeStatus,
  setNodeMemo,
  setNodeMonitor,
  setNodePortType,
  getNodeSystem,
  listNodeCommands,
  listZoneNodes,
  metaZoneNodes,
  renameZoneNode,
  removeZoneNode,
} as const;
