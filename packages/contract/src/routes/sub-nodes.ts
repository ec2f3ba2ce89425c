import { z } from 'zod';
import { dataOf, okReply, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIdParam, zIds } from '../validators/ids.js';
import { zMemo, zText } from '../validators/zod.js';
import { zoneParams } from './zones.js';

/**
 * Sub-nodes (spec part 2 §7 "Nodes": `GET/POST/DELETE .../node/{id}/subs`, `PUT .../sub/ip`).
 *
 * A sub-node is one more address of the same machine as its node: an IP the machine also answers on
 * (a second interface, an additional public address, the public side of a 1:1 NAT). The agent's
 * nginx listens on every address of the machine, so a sub-node needs no change on the node: it is
 * served exactly as the node is (same zone, groups, switch and settings). What it adds is its own
 * DNS record: where the node's groups and lines answer the node, they answer each sub-node address
 * as a record of its own (the DNS side comes with DNS management; until then the addresses are kept
 * and listed).
 *
 * Rules: an address is unique among the operator's node addresses — neither another sub-node's
 * address nor one a node of the operator reported (101025, `extra.ips`); a node has at most
 * {@link SUB_NODE_LIMIT} sub-nodes (202002). Sub-nodes go with their node: a node taken out of its
 * zone keeps them, a node of another operator or another zone is 101018.
 */

/** Most sub-nodes one node may have. */
export const SUB_NODE_LIMIT = 32;

const ipLiteral = z.union([z.ipv4(), z.ipv6()]);
const nodeParams = zoneParams.extend({ id: zIdParam });

export const subNodeSchema = z.object({
  id: z.number().int(),
  nodeId: z.number().int(),
  ip: z.string(),
  memo: z.string(),
  createdAt: z.string(),
});
export type SubNode = z.infer<typeof subNodeSchema>;

const route = routeFamily({
  tags: ['nodes'],
  read: tiers(['client'], 'client.nodes.read'),
  write: tiers(['client'], 'client.nodes.write'),
  params: nodeParams,
});

export const listSubNodes = route.get('client.zone.node.subs', '/client/zone/{zoneID}/node/{id}/subs', {
  codes: [101025],
  summary: "The node's sub-nodes (extra addresses of the same machine), by address",
  response: dataOf(z.array(subNodeSchema)),
});

export const createSubNodes = route.post('client.zone.node.subs.create', '/client/zone/{zoneID}/node/{id}/subs', {
  codes: [101025, 202002],
  summary: 'Adds sub-nodes to the node, one per address, all or none',
  body: z.object({ ips: z.array(ipLiteral).min(1).max(SUB_NODE_LIMIT), memo: zMemo }),
  response: dataOf(z.array(subNodeSchema)),
});

export const deleteSubNodes = route.delete('client.zone.node.subs.delete', '/client/zone/{zoneID}/node/{id}/subs', {
  codes: [101025],
  summary: "Removes sub-nodes of the node, all or none (an id that is not one of the node's is 101018)",
  body: z.object({ ids: zIds(SUB_NODE_LIMIT) }),
  response: okReply,
});

const subNodeIpBody = z.object({ id: zId, ip: ipLiteral, memo: zText(256).optional() });
export type SubNodeIpIn = z.output<typeof subNodeIpBody>;

export const updateSubNodeIp = route.put('client.zone.node.sub.ip', '/client/zone/{zoneID}/node/{id}/sub/ip', {
  codes: [101025],
  summary: "Changes a sub-node's address (and memo when given)",
  body: subNodeIpBody,
  response: dataOf(subNodeSchema),
});

export const subNodeRoutes = { listSubNodes, createSubNodes, deleteSubNodes, updateSubNodeIp } as const;
