import { z } from 'zod';
import { dataOf, defineRoute, tiers } from '../route.js';

/**
 * Whether the operator's customers may have origins on loopback and private addresses (a lab, or
 * Rampart in front of private origins): IP origins saved by the control plane and the addresses
 * the nodes resolve host-name origins to (`isOriginAddressAllowed`). Default: refused. The nodes
 * take the choice with their plane's meta (`allowPrivateOrigins`), without a reload; a node started
 * with RAMPART_ALLOW_PRIVATE_ORIGINS=1 (and a control plane started with it) allows them whatever
 * the setting says.
 */
export const privateOriginsSettingSchema = z.object({
  /** Private, loopback and other non-public addresses may be origins. */
  allowed: z.boolean(),
});
export type PrivateOriginsSetting = z.infer<typeof privateOriginsSettingSchema>;
export const PRIVATE_ORIGINS_DEFAULT: PrivateOriginsSetting = { allowed: false };

export const getPrivateOriginsSetting = defineRoute({
  id: 'client.setting.privateOrigins',
  method: 'GET',
  path: '/client/setting/privateOrigins',
  access: tiers(['client'], 'client.settings.read'),
  codes: [],
  summary: "Whether the operator's customers may have origins on loopback and private addresses",
  tags: ['settings'],
  request: {},
  response: dataOf(privateOriginsSettingSchema),
});

export const putPrivateOriginsSetting = defineRoute({
  id: 'client.setting.privateOrigins.update',
  method: 'PUT',
  path: '/client/setting/privateOrigins',
  access: tiers(['client'], 'client.settings.write'),
  codes: [],
  summary:
    "Allows or refuses origins on loopback and private addresses for the operator's customers; the nodes take it with their next plane answer",
  tags: ['settings'],
  request: { body: privateOriginsSettingSchema },
  response: dataOf(privateOriginsSettingSchema),
});

export const privateOriginsRoutes = { getPrivateOriginsSetting, putPrivateOriginsSetting } as const;
