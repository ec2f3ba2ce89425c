import { z } from 'zod';
import { REAL_IP_HEADERS, TRUSTED_PROXIES_MAX } from '../edge/real-ip.js';
import { dataOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { canonicalIPEntry, isCIDR, isIP } from '../validators/ip.js';
import { zoneParams } from './zones.js';

/**
 * A zone's trust setting (the spec's "trust setting" page; docs/decisions.md "The visitor's
 * address behind proxies"): which proxies in front of the zone's nodes may say who the visitor is,
 * and how — the `X-Forwarded-For` or `X-Real-IP` header, or the PROXY protocol (v1 and v2) on
 * every HTTP and HTTPS port of the zone's nodes. With the PROXY protocol on, the ports accept only
 * connections that start with a PROXY header: turn it on only when every client reaches the nodes
 * through such a proxy. A change is rendered into nginx.conf: the zone's nodes reload nginx.
 */

export const zoneTrustSchema = z.object({
  /** Addresses or CIDRs of the proxies whose header or PROXY address is believed. */
  proxies: z.array(z.string()),
  header: z.enum(REAL_IP_HEADERS),
  proxyProtocol: z.boolean(),
});
export type ZoneTrust = z.infer<typeof zoneTrustSchema>;

export const zoneTrustInputSchema = z.object({
  proxies: z
    .array(z.string())
    .max(TRUSTED_PROXIES_MAX, 'tooMany')
    .superRefine((entries, ctx) => {
      const seen = new Set<string>();
      entries.forEach((entry, i) => {
        if (!isIP(entry) && !isCIDR(entry)) {
          ctx.addIssue({ code: 'custom', path: [i], message: 'wrongFormat' });
          return;
        }
        const key = canonicalIPEntry(entry) as string;
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i], message: 'duplicateIP' });
        seen.add(key);
      });
    }),
  header: z.enum(REAL_IP_HEADERS).default('X-Forwarded-For'),
  proxyProtocol: z.boolean().default(false),
});
export type ZoneTrustInput = z.input<typeof zoneTrustInputSchema>;
export type ZoneTrustIn = z.output<typeof zoneTrustInputSchema>;

const route = routeFamily({
  tags: ['zones'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
  params: zoneParams,
});

export const getZoneTrust = route.get('client.zone.setting.trust.get', '/client/zone/{zoneID}/setting/trust', {
  summary: "The zone's trusted proxies and how they pass the visitor's address (nobody trusted until set)",
  response: dataOf(zoneTrustSchema),
});

export const setZoneTrust = route.put('client.zone.setting.trust.set', '/client/zone/{zoneID}/setting/trust', {
  summary: "Sets the zone's trusted proxies, the header they use or the PROXY protocol (the nodes reload nginx)",
  body: zoneTrustInputSchema,
  response: dataOf(zoneTrustSchema),
});

export const zoneTrustRoutes = { getZoneTrust, setZoneTrust } as const;
