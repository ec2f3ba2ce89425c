import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIdParam, zIds } from '../validators/ids.js';
import { lineIdSchema } from './dns-lines.js';
import { portTypeSchema } from './groups.js';
import { zoneParams } from './zones.js';

/**
 * Nodes and virtual nodes placed on the DNS lines of a group (spec part 2 §7 "Zones and groups",
 * "Virtual nodes"). Lines are DNS placement only: a node on any line of a group is in the group and
 * serves the sites of the products that use the group, and so does a node a placed virtual node's
 * records name. A node serves one port type: the port type of the groups it is placed on and of
 * the virtual nodes naming it; placing it where the other port type is served is refused (101003,
 * key `portTypeMismatch`).
 */

/** Most places (a node or virtual node on one line) one group holds, all lines together (203003 beyond). */
export const GROUP_PLACEMENT_LIMIT = 1000;

const ids = zIds(500);
export const groupLinesParams = zoneParams.extend({ groupID: zIdParam });
export const lineParams = groupLinesParams.extend({ lineID: lineIdSchema });
const candidateQuery = pageQuery.extend({
  /** Searches the name (and a node's addresses). */
  value: z.string().max(256).optional(),
});
export type LineCandidateQuery = z.output<typeof candidateQuery>;

export const lineNodeSchema = z.object({ id: z.number().int(), name: z.string(), ips: z.array(z.string()) });
export type LineNode = z.infer<typeof lineNodeSchema>;
export const lineVirtualNodeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  portType: portTypeSchema,
  recordCount: z.number().int(),
});
export type LineVirtualNode = z.infer<typeof lineVirtualNodeSchema>;
export const lineNodeNumsSchema = z.object({
  line: lineIdSchema,
  nodeNum: z.number().int(),
  virtualNodeNum: z.number().int(),
});

const route = routeFamily({ tags: ['zones'], read: tiers(['client'], 'client.zones.read') });

export const lineNodeNums = route.get(
  'client.group.lines.nodeNums',
  '/client/zone/{zoneID}/group/{groupID}/lines/nodeNums',
  {
    summary: 'Every DNS line of the catalogue with the number of nodes and virtual nodes the group has on it',
    params: groupLinesParams,
    response: dataOf(z.array(lineNodeNumsSchema)),
  },
);

/**
 * The calls on one line's nodes or virtual nodes: they mirror each other. A group's nodes are
 * part of the zone (`client.zones.*`); its virtual nodes are managed with the virtual nodes.
 */
function lineCalls<const K extends 'nodes' | 'virtualNodes', I extends z.ZodType, const F extends string>(
  kind: K,
  item: I,
  field: F,
  what: string,
  key: 'client.zones' | 'client.virtualNodes',
) {
  const read = tiers(['client'], `${key}.read`);
  const write = tiers(['client'], `${key}.write`);
  const path = `/client/zone/{zoneID}/group/{groupID}/line/{lineID}/${kind}` as const;
  const idsBody = z.object({ [field]: ids } as Record<F, typeof ids>);
  return {
    list: route.get(`client.group.line.${kind}.list`, path, {
      access: read,
      summary: `The ${what} of a group on a DNS line, paged`,
      params: lineParams,
      query: pageQuery,
      response: pageOf(item),
    }),
    add: route.post(`client.group.line.${kind}.add`, path, {
      access: write,
      codes: [203003, 401002],
      summary:
        `Places ${what} of the group's zone on a line, all or none (already placed ones stay); ` +
        `each must serve the group's port type; 203003 beyond ${GROUP_PLACEMENT_LIMIT} places in the group`,
      params: lineParams,
      body: idsBody,
      response: okReply,
    }),
    remove: route.delete(`client.group.line.${kind}.remove`, path, {
      access: write,
      summary: `Takes ${what} off a line of the group, all or none (each must be on the line)`,
      params: lineParams,
      body: idsBody,
      response: okReply,
    }),
    move: route.patch(`client.group.line.${kind}.move`, path, {
      access: write,
      summary:
        `Moves ${what} from this line to \`toLine\` of the same group, all or none (each must be on this line); ` +
        'one already on the target line just leaves this one',
      params: lineParams,
      body: idsBody.extend({ toLine: lineIdSchema }),
      response: okReply,
    }),
    candidates: route.get(
      `client.group.line.${kind}.candidates`,
      `/client/zone/{zoneID}/group/{groupID}/line/{lineID}/${kind}/candidates`,
      {
        access: read,
        summary: `The ${what} of the zone that could be placed on the line: of the group's port type and not on it yet`,
        params: lineParams,
        query: candidateQuery,
        response: pageOf(item),
      },
    ),
  };
}

const nodeCalls = lineCalls('nodes', lineNodeSchema, 'nodeIDs', 'nodes', 'client.zones');
const virtualNodeCalls = lineCalls(
  'virtualNodes',
  lineVirtualNodeSchema,
  'virtualNodeIDs',
  'virtual nodes',
  'client.virtualNodes',
);
export const listLineNodes = nodeCalls.list;
export const addLineNodes = nodeCalls.add;
export const removeLineNodes = nodeCalls.remove;
export const moveLineNodes = nodeCalls.move;
export const lineNodeCandidates = nodeCalls.candidates;
export const listLineVirtualNodes = virtualNodeCalls.list;
export const addLineVirtualNodes = virtualNodeCalls.add;
export const removeLineVirtualNodes = virtualNodeCalls.remove;
export const moveLineVirtualNodes = virtualNodeCalls.move;
export const lineVirtualNodeCandidates = virtualNodeCalls.candidates;

export const groupLineRoutes = {
  lineNodeNums,
  listLineNodes,
  addLineNodes,
  removeLineNodes,
  moveLineNodes,
  lineNodeCandidates,
  listLineVirtualNodes,
  addLineVirtualNodes,
  removeLineVirtualNodes,
  moveLineVirtualNodes,
  lineVirtualNodeCandidates,
} as const;
