import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIdParam, zIds } from '../validators/ids.js';
import { zDomainName, zMemo, zName } from '../validators/zod.js';
import { portTypeSchema } from './groups.js';
import { zoneParams } from './zones.js';

/**
 * Virtual nodes (spec part 2 §7 "Virtual nodes"): DNS-level nodes of a zone. A virtual node is a
 * name whose records are either one CNAME target (a host name elsewhere) or references to real
 * nodes of the operator, answered with their IPs; a DNS name cannot hold a CNAME next to other
 * records, so the two kinds never mix (101003, key `cnameAlone`). Its port type is fixed at
 * creation; it goes only on groups of that port type, and its node records only name nodes that
 * serve it. A virtual node on a line cannot be deleted (206001).
 */

const ids = zIds(500);
const virtualNodeParams = zoneParams.extend({ id: zIdParam });

export const virtualNodeSchema = z.object({
  id: z.number().int(),
  zoneId: z.number().int(),
  name: z.string(),
  portType: portTypeSchema,
  memo: z.string(),
  recordCount: z.number().int(),
  /** Places on group lines. */
  lineCount: z.number().int(),
  createdAt: z.string(),
});
export type VirtualNode = z.infer<typeof virtualNodeSchema>;

export const VIRTUAL_NODE_RECORD_TYPES = ['cname', 'node'] as const;
export const virtualNodeRecordSchema = z.object({
  id: z.number().int(),
  type: z.enum(VIRTUAL_NODE_RECORD_TYPES),
  /** The CNAME target; '' for a node record. */
  value: z.string(),
  /** The node of a node record; null for a CNAME. */
  nodeId: z.number().int().nullable(),
  nodeName: z.string(),
  /** The node's addresses, what DNS answers for a node record. */
  ips: z.array(z.string()),
  createdAt: z.string(),
});
export type VirtualNodeRecord = z.infer<typeof virtualNodeRecordSchema>;

const route = routeFamily({
  tags: ['zones'],
  read: tiers(['client'], 'client.virtualNodes.read'),
  write: tiers(['client'], 'client.virtualNodes.write'),
});

export const listVirtualNodes = route.get('client.virtualNodes.list', '/client/zone/{zoneID}/virtualNodes', {
  summary: 'Virtual nodes of a zone, paged, optionally searched by name',
  params: zoneParams,
  query: pageQuery.extend({ value: z.string().max(256).optional() }),
  response: pageOf(virtualNodeSchema),
});

const createVirtualNodeBody = z.object({ name: zName, portType: portTypeSchema, memo: zMemo });
export type VirtualNodeCreateIn = z.output<typeof createVirtualNodeBody>;
const updateVirtualNodeBody = z.object({ id: zId, name: zName, memo: zMemo });
export type VirtualNodeUpdateIn = z.output<typeof updateVirtualNodeBody>;

export const createVirtualNode = route.post('client.virtualNode.create', '/client/zone/{zoneID}/virtualNode', {
  codes: [101025],
  summary: 'Creates a virtual node in a zone (101025 when the name is taken in the zone)',
  params: zoneParams,
  body: createVirtualNodeBody,
  response: dataOf(virtualNodeSchema),
});

export const updateVirtualNode = route.put('client.virtualNode.update', '/client/zone/{zoneID}/virtualNode', {
  codes: [101025],
  summary: 'Renames a virtual node or changes its memo (its port type is fixed)',
  params: zoneParams,
  body: updateVirtualNodeBody,
  response: dataOf(virtualNodeSchema),
});

export const deleteVirtualNodes = route.delete('client.virtualNode.delete', '/client/zone/{zoneID}/virtualNode', {
  codes: [206001],
  summary: 'Deletes virtual nodes with their records, all or none; one still on a line is refused (206001)',
  params: zoneParams,
  body: z.object({ ids }),
  response: okReply,
});

export const listVirtualNodeRecords = route.get(
  'client.virtualNode.records',
  '/client/zone/{zoneID}/virtualNode/{id}/records',
  {
    summary: "A virtual node's records, paged",
    params: virtualNodeParams,
    query: pageQuery,
    response: pageOf(virtualNodeRecordSchema),
  },
);

export const addVirtualNodeCname = route.post(
  'client.virtualNode.record.cname',
  '/client/zone/{zoneID}/virtualNode/{id}/record/cname',
  {
    summary: 'Gives a virtual node without records its CNAME target (a host name, stored in ASCII form)',
    params: virtualNodeParams,
    body: z.object({ value: zDomainName() }),
    response: dataOf(virtualNodeRecordSchema),
  },
);

export const addVirtualNodeNodeRecords = route.post(
  'client.virtualNode.record.node',
  '/client/zone/{zoneID}/virtualNode/{id}/record/node',
  {
    codes: [401002],
    summary:
      "Adds records naming initialised nodes of the operator (any zone), all or none; each must serve the virtual node's port type; already named ones stay",
    params: virtualNodeParams,
    body: z.object({ nodeIDs: ids }),
    response: okReply,
  },
);

export const deleteVirtualNodeRecords = route.delete(
  'client.virtualNode.record.delete',
  '/client/zone/{zoneID}/virtualNode/{id}/record',
  {
    summary: 'Deletes records of a virtual node, all or none (each must be one of its records)',
    params: virtualNodeParams,
    body: z.object({ ids }),
    response: okReply,
  },
);

export const virtualNodeRoutes = {
  listVirtualNodes,
  createVirtualNode,
  updateVirtualNode,
  deleteVirtualNodes,
  listVirtualNodeRecords,
  addVirtualNodeCname,
  addVirtualNodeNodeRecords,
  deleteVirtualNodeRecords,
} as const;
