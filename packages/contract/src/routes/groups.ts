import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { idNameSchema, zId } from '../validators/ids.js';
import { zMemo, zName } from '../validators/zod.js';
import { zoneParams } from './zones.js';

/**
 * Groups of nodes inside a zone (spec part 2 §7 "Zones and groups"). A group serves one port type
 * (7: HTTP/HTTPS sites, 4: layer-4 ports) and may be a backup group. Nodes and virtual nodes sit
 * in a group per DNS line (see `group-lines.ts`); a node on any line of a group is in the group.
 */
export const PORT_TYPES = [7, 4] as const;
export const portTypeSchema = z.union([z.literal(7), z.literal(4)]);

export const groupSchema = z.object({
  id: z.number().int(),
  zoneId: z.number().int(),
  name: z.string(),
  portType: portTypeSchema,
  isBackup: z.boolean(),
  memo: z.string(),
  /** Nodes on any of its lines. */
  nodeCount: z.number().int(),
  /** Virtual nodes on any of its lines. */
  virtualNodeCount: z.number().int(),
  createdAt: z.string(),
});
export type Group = z.infer<typeof groupSchema>;

const route = routeFamily({
  tags: ['zones'],
  read: tiers(['client'], 'client.zones.read'),
  write: tiers(['client'], 'client.zones.write'),
  params: zoneParams,
});

export const listGroups = route.get('client.groups.list', '/client/zone/{zoneID}/groups', {
  summary: 'Groups of a zone, paged',
  query: pageQuery,
  response: pageOf(groupSchema),
});

const groupMetaQuery = z.object({
  portType: z.coerce.number().pipe(portTypeSchema).optional(),
  isBackup: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export type GroupMetaQuery = z.output<typeof groupMetaQuery>;

export const metaGroups = route.get('client.groups.meta', '/client/zone/{zoneID}/metaGroups', {
  summary: 'Groups of a zone as id and name, optionally of one port type or backup flag',
  query: groupMetaQuery,
  response: dataOf(z.array(idNameSchema)),
});

const groupBody = z.object({
  name: zName,
  portType: portTypeSchema,
  isBackup: z.boolean().default(false),
  memo: zMemo,
});
export type GroupIn = z.output<typeof groupBody>;
const groupUpdateBody = z.object({ id: zId, name: zName, isBackup: z.boolean(), memo: zMemo });
export type GroupUpdateIn = z.output<typeof groupUpdateBody>;

export const createGroup = route.post('client.group.create', '/client/zone/{zoneID}/group', {
  codes: [101025],
  summary: 'Creates a group in a zone',
  body: groupBody,
  response: dataOf(groupSchema),
});

export const updateGroup = route.patch('client.group.update', '/client/zone/{zoneID}/group', {
  codes: [101025],
  summary: 'Renames a group, or changes its memo or backup flag (its port type is fixed)',
  body: groupUpdateBody,
  response: dataOf(groupSchema),
});

export const deleteGroup = route.delete('client.group.delete', '/client/zone/{zoneID}/group', {
  codes: [203001],
  summary: 'Deletes a group that no product uses (203001 otherwise); its node places go with it',
  body: z.object({ id: zId }),
  response: okReply,
});

export const groupRoutes = {
  listGroups,
  metaGroups,
  createGroup,
  updateGroup,
  deleteGroup,
} as const;
