import { z } from 'zod';
import { isIP } from '../validators/ip.js';
import { isOriginHostName } from '../validators/origin.js';

// The data plane's limits and the field shapes its entries share (data-plane.ts holds the whole plane).
/**
 * The data-plane document: everything an edge node serves per domain. The control plane builds it
 * (inside a node snapshot), the agent validates it with these same schemas (allowlists, limits)
 * before anything reaches nginx, and the Lua admin endpoint checks its shape again. None of these
 * values is ever rendered into nginx.conf: they live in Lua shared memory.
 */

export const DATA_PLANE_LIMITS = {
  domains: 50_000,
  certificates: 10_000,
  upstreamsPerDomain: 64,
  documentBytes: 256 * 1024 * 1024,
  certPemBytes: 64 * 1024,
  keyPemBytes: 16 * 1024,
  versionLength: 128,
  hostLength: 253,
} as const;

/** Lower-case ASCII host with an optional leading `*.`; the last label is letters or an `xn--` A-label. */
export const HOST_NAME_RE = /^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
export const VERSION_RE = /^[A-Za-z0-9._:-]+$/;
const CERT_BLOCK_RE = /-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+?-----END CERTIFICATE-----/g;
export const KEY_BLOCK_RE =
  /^-----BEGIN (PRIVATE KEY|RSA PRIVATE KEY|EC PRIVATE KEY)-----\r?\n[A-Za-z0-9+/=\r\n]+?-----END \1-----\s*$/;

/** One or more CERTIFICATE blocks (leaf first, then the chain) and nothing else but whitespace. */
export function isCertificateChain(pem: string): boolean {
  const rest = pem.replace(CERT_BLOCK_RE, '');
  return rest !== pem && rest.trim() === '';
}

export const id = z.number().int().min(1).max(2_147_483_647);
export const hostName = z.string().max(DATA_PLANE_LIMITS.hostLength).regex(HOST_NAME_RE, 'not a lower-case host name');
export const originHost = hostName.refine((h) => !h.startsWith('*.'), 'an origin host cannot be a wildcard');
export const ipLiteral = z.string().refine((ip) => isIP(ip), 'not an IPv4 or IPv6 literal');
/**
 * An upstream's origin: an IP literal, or a host name the agent resolves (its addresses, held to
 * the origin address rule, reach nginx's store as literals: the Lua side only ever sees those).
 */
export const originAddress = z
  .string()
  .refine((ip) => isIP(ip) || isOriginHostName(ip), 'not an IP literal or a host name');
