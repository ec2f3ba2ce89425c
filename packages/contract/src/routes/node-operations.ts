import { z } from 'zod';
import { cacheUrlResultSchema } from '../edge/cache-urls.js';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
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

const route = routeFamily({
  tags: ['nodes'],
  read: tiers(['client'], 'client.nodes.read'),
  write: tiers(['client'], 'client.nodes.write'),
});

export const rotateNodeLogs = route.post('client.nodes.logRotate', '/client/nodes/logRotate', {
  summary:
    "Queues a log rotation: each agent renames nginx's access and error logs, has nginx reopen fresh ones and keeps the last few",
  body: z.object({ ids }),
  response: commandsReply,
});

export const setNodeLogRotateTime = route.put('client.nodes.logRotateTime', '/client/nodes/logRotateTime', {
  codes: [202006],
  summary:
    'Sets the daily log rotation time (`HH:MM` UTC, null for none; 202006 for a time that is not one); it reaches the agents in their snapshot',
  body: z.object({ ids, time: z.string().max(16).nullable() }),
  response: okReply,
});

export const setNodeStatus = route.patch('client.node.status', '/client/node/status', {
  summary: 'Switches nodes on or off: an off node stays connected but serves no site',
  body: z.object({ ids, status: nodeSwitchSchema }),
  response: okReply,
});

export const setNodeMemo = route.put('client.nodes.memo', '/client/nodes/memo', {
  summary: 'Sets the memo of nodes',
  body: z.object({ ids, memo: zText(256) }),
  response: okReply,
});

export const setNodeMonitor = route.patch('client.node.monitor', '/client/node/monitor', {
  summary: 'Sets whether monitoring watches the nodes',
  body: z.object({ ids, monitor: z.boolean() }),
  response: okReply,
});

export const setNodePortType = route.put('client.nodes.portType', '/client/nodes/portType', {
  codes: [202005],
  summary:
    'Sets the port type of nodes (7 sites, 4 layer-4); 202005 when a node still sits in a group of the other port type',
  body: z.object({ ids, portType: portTypeSchema }),
  response: okReply,
});

export const getNodeSystem = route.get('client.zone.node.system', '/client/zone/{zoneID}/node/{id}/system', {
  summary: "The node's latest system information as its agent reported it (null before the first report)",
  params: nodeParams,
  response: dataOf(nodeSystemSchema.extend({ reportedAt: z.string() }).nullable()),
});

export const listNodeCommands = route.get('client.zone.node.commands', '/client/zone/{zoneID}/node/{id}/commands', {
  summary: "The node's commands, newest first, with their status and result",
  params: nodeParams,
  query: pageQuery,
  response: pageOf(nodeCommandSchema),
});

export const listZoneNodes = route.get('client.zone.nodes', '/client/zone/{zoneID}/nodes', {
  access: tiers(['client'], 'client.zones.read'),
  summary: 'Initialised nodes of a zone, paged',
  params: zoneParams,
  query: pageQuery.extend({ value: z.string().max(256).optional() }),
  response: pageOf(initializedNodeSchema),
});

export const metaZoneNodes = route.get('client.zone.metaNodes', '/client/zone/{zoneID}/metaNodes', {
  summary: 'Every node of a zone as id and name, for pickers',
  params: zoneParams,
  response: dataOf(z.array(idNameSchema)),
});

export const renameZoneNode = route.patch('client.zone.node.update', '/client/zone/{zoneID}/node', {
  summary: 'Renames a node of the zone',
  params: zoneParams,
  body: z.object({ id: zId, name: zName }),
  response: okReply,
});

export const removeZoneNode = route.delete('client.zone.node.delete', '/client/zone/{zoneID}/node', {
  codes: [202003, 202004],
  summary:
    'Takes a node out of the zone: it becomes uninitialised again (its agent keeps its credentials); 202003 while it sits in a group',
  params: zoneParams,
  body: z.object({ id: zId }),
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
