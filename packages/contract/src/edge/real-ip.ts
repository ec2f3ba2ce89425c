import { z } from 'zod';
import { canonicalIPEntry, isCIDR, isIP } from '../validators/ip.js';

/**
 * Where the edge takes the visitor's address from when it sits behind a load balancer or another
 * proxy (the zone's trust setting, routes/zone-trust.ts). Rendered into nginx.conf by the agent
 * (nginx's realip module: `set_real_ip_from`, `real_ip_header`, `real_ip_recursive on`, and
 * `proxy_protocol` on the HTTP and HTTPS listen ports), so every value is checked here against an
 * allowlist first: addresses and CIDRs parsed by our own parser, the header from a fixed list.
 *
 * A header or a PROXY protocol address is believed only on a connection from one of `trusted`;
 * from anyone else the connection's own address stays the client's. Every IP rule, limit and log
 * line of the edge then sees the visitor's address.
 */

export const REAL_IP_HEADERS = ['X-Forwarded-For', 'X-Real-IP'] as const;
export type RealIpHeader = (typeof REAL_IP_HEADERS)[number];
/** Most trusted proxy addresses or CIDRs per zone. */
export const TRUSTED_PROXIES_MAX = 64;

/** An address or CIDR of a trusted proxy: our parser's forms only (nginx's are a superset). */
export const isTrustedProxyEntry = (s: string): boolean => isIP(s) || isCIDR(s);

export const edgeRealIpSchema = z
  .strictObject({
    trusted: z
      .array(z.string().max(64).refine(isTrustedProxyEntry, 'not an IP address or CIDR'))
      .max(TRUSTED_PROXIES_MAX),
    header: z.enum(REAL_IP_HEADERS),
    proxyProtocol: z.boolean(),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    value.trusted.forEach((entry, i) => {
      const key = canonicalIPEntry(entry) ?? entry;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['trusted', i], message: 'duplicate entry' });
      seen.add(key);
    });
  });
export type EdgeRealIp = z.infer<typeof edgeRealIpSchema>;

/** Nobody trusted: the connection's address is the client's. */
export const NO_REAL_IP: EdgeRealIp = { trusted: [], header: 'X-Forwarded-For', proxyProtocol: false };
