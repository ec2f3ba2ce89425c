import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, okReply, pageOf, tiers } from '../route.js';
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

export const listVirtualNodes = defineRoute({
  id: 'client.virtualNodes.list',
  method: 'GET',
  path: '/client/zone/{zoneID}/virtualNodes',
  access: tiers(['client'], 'client.virtualNodes.read'),
  codes: [],
  summary: 'Virtual nodes of a zone, paged, optionally searched by name',
  tags: ['zones'],
  request: { params: zoneParams, query: pageQuery.extend({ value: z.string().max(256).optional() }) },
  response: pageOf(virtualNodeSchema),
});

const createVirtualNodeBody = z.object({ name: zName, portType: portTypeSchema, memo: zMemo });
export type VirtualNodeCreateIn = z.output<typeof createVirtualNodeBody>;
const updateVirtualNodeBody = z.object({ id: zId, name: zName, memo: zMemo });
export type VirtualNodeUpdateIn = z.output<typeof updateVirtualNodeBody>;

export const createVirtualNode = defineRoute({
  id: 'client.virtualNode.create',
  method: 'POST',
  path: '/client/zone/{zoneID}/virtualNode',
  access: tiers(['client'], 'client.virtualNodes.write'),
  codes: [101025],
  summary: 'Creates a virtual node in a zone (101025 when the name is taken in the zone)',
  tags: ['zones'],
  request: {
    params: zoneParams,
    body: createVirtualNodeBody,
  },
  response: dataOf(virtualNodeSchema),
});

export const updateVirtualNode = defineRoute({
  id: 'client.virtualNode.update',
  method: 'PUT',
  path: '/client/zone/{zoneID}/virtualNode',
  access: tiers(['client'], 'client.virtualNodes.write'),
  codes: [101025],
  summary: 'Renames a virtual node or changes its memo (its port type is fixed)',
  tags: ['zones'],
  request: {
    params: zoneParams,
    body: updateVirtualNodeBody,
  },
  response: dataOf(virtualNodeSchema),
});

export const deleteVirtualNodes = defineRoute({
  id: 'client.virtualNode.delete',
  method: 'DELETE',
  path: '/client/zone/{zoneID}/virtualNode',
  access: tiers(['client'], 'client.virtualNodes.write'),
  codes: [206001],
  summary: 'Deletes virtual nodes with their records, all or none; one still on a line is refused (206001)',
  tags: ['zones'],
  request: { params: zoneParams, body: z.object({ ids }) },
  response: okReply,
});

export const listVirtualNodeRecords = defineRoute({
  id: 'client.virtualNode.records',
  method: 'GET',
  path: '/client/zone/{zoneID}/virtualNode/{id}/records',
  access: tiers(['client'], 'client.virtualNodes.read'),
  codes: [],
  summary: "A virtual node's records, paged",
  tags: ['zones'],
  request: { params: virtualNodeParams, query: pageQuery },
  response: pageOf(virtualNodeRecordSchema),
});

export const addVirtualNodeCname = defineRoute({
  id: 'client.virtualNode.record.cname',
  method: 'POST',
  path: '/client/zone/{zoneID}/virtualNode/{id}/record/cname',
  access: tiers(['client'], 'client.virtualNodes.write'),
  codes: [],
  summary: 'Gives a virtual node without records its CNAME target (a host name, stored in ASCII form)',
  tags: ['zones'],
  request: { params: virtualNodeParams, body: z.object({ value: zDomainName() }) },
  response: dataOf(virtualNodeRecordSchema),
});

export const addVirtualNodeNodeRecords = defineRoute({
  id: 'client.virtualNode.record.node',
  method: 'POST',
  path: '/client/zone/{zoneID}/virtualNode/{id}/record/node',
  access: tiers(['client'], 'client.virtualNodes.write'),
  codes: [401002],
  summary:
    "Adds records naming initialised nodes of the operator (any zone), all or none; each must serve the virtual node's port type; already named ones stay",
  tags: ['zones'],
  request: { params: virtualNodeParams, body: z.object({ nodeIDs: ids }) },
  response: okReply,
});

export const deleteVirtualNodeRecords = defineRoute({
  id: 'client.virtualNode.record.delete',
  method: 'DELETE',
  path: '/client/zone/{zoneID}/virtualNode/{id}/record',
  access: tiers(['client'], 'client.virtualNodes.write'),
  codes: [],
  summary: 'Deletes records of a virtual node, all or none (each must be one of its records)',
  tags: ['zones'],
  request: { params: virtualNodeParams, body: z.object({ ids }) },
  response: okReply,
});

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
