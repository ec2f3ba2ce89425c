import { z } from 'zod';
import { dataOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';

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

const route = routeFamily({
  tags: ['settings'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
});

export const getPrivateOriginsSetting = route.get('client.setting.privateOrigins', '/client/setting/privateOrigins', {
  summary: "Whether the operator's customers may have origins on loopback and private addresses",
  response: dataOf(privateOriginsSettingSchema),
});

export const putPrivateOriginsSetting = route.put(
  'client.setting.privateOrigins.update',
  '/client/setting/privateOrigins',
  {
    summary:
      "Allows or refuses origins on loopback and private addresses for the operator's customers; the nodes take it with their next plane answer",
    body: privateOriginsSettingSchema,
    response: dataOf(privateOriginsSettingSchema),
  },
);

export const privateOriginsRoutes = { getPrivateOriginsSetting, putPrivateOriginsSetting } as const;
