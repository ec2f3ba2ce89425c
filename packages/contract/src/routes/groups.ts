import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, pageOf, tiers } from '../route.js';
import { zName, zText } from '../validators/zod.js';
import { zoneParams } from './zones.js';

/**
 * Groups of nodes inside a zone (spec part 2 §7 "Zones and groups"). A group serves one port type
 * (7: HTTP/HTTPS sites, 4: layer-4 ports) and may be a backup group. Nodes sit in a group per DNS
 * line; `default` is the line every resolver gets when no other line matches.
 */
export const PORT_TYPES = [7, 4] as const;
export const portTypeSchema = z.union([z.literal(7), z.literal(4)]);
export const DEFAULT_LINE = 'default';
export const lineIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export const groupSchema = z.object({
  id: z.number().int(),
  zoneId: z.number().int(),
  name: z.string(),
  portType: portTypeSchema,
  isBackup: z.boolean(),
  memo: z.string(),
  nodeCount: z.number().int(),
  createdAt: z.string(),
});
export type Group = z.infer<typeof groupSchema>;

const client = tiers(['client']);
const lineParams = zoneParams.extend({ groupID: z.coerce.number().int().positive(), lineID: lineIdSchema });
const id = z.number().int().positive();

export const listGroups = defineRoute({
  id: 'client.groups.list',
  method: 'GET',
  path: '/client/zone/{zoneID}/groups',
  access: client,
  summary: 'Groups of a zone, paged',
  tags: ['zones'],
  request: { params: zoneParams, query: pageQuery },
  response: pageOf(groupSchema),
});

export const metaGroups = defineRoute({
  id: 'client.groups.meta',
  method: 'GET',
  path: '/client/zone/{zoneID}/metaGroups',
  access: client,
  summary: 'Groups of a zone as id and name, optionally of one port type or backup flag',
  tags: ['zones'],
  request: {
    params: zoneParams,
    query: z.object({
      portType: z.coerce.number().pipe(portTypeSchema).optional(),
      isBackup: z
        .enum(['true', 'false'])
        .transform((v) => v === 'true')
        .optional(),
    }),
  },
  response: dataOf(z.array(z.object({ id: z.number().int(), name: z.string() }))),
});

export const createGroup = defineRoute({
  id: 'client.group.create',
  method: 'POST',
  path: '/client/zone/{zoneID}/group',
  access: client,
  summary: 'Creates a group in a zone',
  tags: ['zones'],
  request: {
    params: zoneParams,
    body: z.object({
      name: zName,
      portType: portTypeSchema,
      isBackup: z.boolean().default(false),
      memo: zText(256).default(''),
    }),
  },
  response: dataOf(groupSchema),
});

export const updateGroup = defineRoute({
  id: 'client.group.update',
  method: 'PATCH',
  path: '/client/zone/{zoneID}/group',
  access: client,
  summary: 'Renames a group, or changes its memo or backup flag (its port type is fixed)',
  tags: ['zones'],
  request: {
    params: zoneParams,
    body: z.object({ id, name: zName, isBackup: z.boolean(), memo: zText(256).default('') }),
  },
  response: dataOf(groupSchema),
});

export const deleteGroup = defineRoute({
  id: 'client.group.delete',
  method: 'DELETE',
  path: '/client/zone/{zoneID}/group',
  access: client,
  summary: 'Deletes a group that no product uses (203001 otherwise); its node places go with it',
  tags: ['zones'],
  request: { params: zoneParams, body: z.object({ id }) },
  response: dataOf(z.literal(true)),
});

export const lineNodeSchema = z.object({ id: z.number().int(), name: z.string(), ips: z.array(z.string()) });

export const listLineNodes = defineRoute({
  id: 'client.group.line.nodes.list',
  method: 'GET',
  path: '/client/zone/{zoneID}/group/{groupID}/line/{lineID}/nodes',
  access: client,
  summary: 'Nodes of a group on a DNS line',
  tags: ['zones'],
  request: { params: lineParams, query: pageQuery },
  response: pageOf(lineNodeSchema),
});

export const addLineNodes = defineRoute({
  id: 'client.group.line.nodes.add',
  method: 'POST',
  path: '/client/zone/{zoneID}/group/{groupID}/line/{lineID}/nodes',
  access: client,
  summary: "Puts initialised nodes of the group's zone in the group on a line",
  tags: ['zones'],
  request: { params: lineParams, body: z.object({ nodeIDs: z.array(id).min(1).max(500) }) },
  response: dataOf(z.literal(true)),
});

export const removeLineNodes = defineRoute({
  id: 'client.group.line.nodes.remove',
  method: 'DELETE',
  path: '/client/zone/{zoneID}/group/{groupID}/line/{lineID}/nodes',
  access: client,
  summary: 'Takes nodes out of the group on a line',
  tags: ['zones'],
  request: { params: lineParams, body: z.object({ nodeIDs: z.array(id).min(1).max(500) }) },
  response: dataOf(z.literal(true)),
});

export const groupRoutes = {
  listGroups,
  metaGroups,
  createGroup,
  updateGroup,
  deleteGroup,
  listLineNodes,
  addLineNodes,
  removeLineNodes,
} as const;
