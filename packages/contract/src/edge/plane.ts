import { z } from 'zod';
import { edgeChallengeSchema } from './challenge.js';
import {
  type DataPlane,
  edgeAcmeChallengeSchema,
  edgeCachePolicySchema,
  edgeCertificateSchema,
  edgeDomainSchema,
  edgeErrorPageSchema,
  edgeFirewallSchema,
  edgeSiteSettingsSchema,
  edgeZoneLimitsSchema,
} from './data-plane.js';
import { edgeGeoDatabaseSchema } from './geo.js';
import { edgeModuleSchema } from './modules.js';
import { edgeAbuseIPsSchema } from './reputation.js';

/**
 * The data plane as versioned entries (docs/data-plane-deltas.md): each `(kind, key) → value`
 * belongs to one site; what is not per site (the node's own values, the operator's pages, the
 * challenge keys, the zone's force-SSL redirect code) travels as the plane's `meta`.
 */
export const PLANE_ENTRY_KINDS = ['domain', 'certificate', 'cache', 'module', 'settings', 'firewall', 'acme'] as const;
export type PlaneEntryKind = (typeof PLANE_ENTRY_KINDS)[number];

/**
 * A domain's entry: the data plane's domain but for the zone's force-SSL redirect code, which is
 * the node's (its zone's) and travels in the meta, so nodes of different zones share the entry.
 */
export const planeDomainSchema = edgeDomainSchema.omit({ forceSSLCode: true });
export type PlaneDomain = z.infer<typeof planeDomainSchema>;

/** The value schema of each kind (checked by the agent before it applies a delta). */
export const planeEntryValueSchemas = {
  domain: planeDomainSchema,
  certificate: edgeCertificateSchema,
  cache: edgeCachePolicySchema,
  module: edgeModuleSchema,
  settings: edgeSiteSettingsSchema,
  firewall: edgeFirewallSchema,
  /** The ACME HTTP-01 challenges of one site's domains being issued (key: the site id). */
  acme: z.array(edgeAcmeChallengeSchema).min(1),
} as const;

const HASH_RE = /^[0-9a-f]{12}$/;
export const planeHashSchema = z.string().regex(HASH_RE);

/**
 * The plane's values that are not entries: recomputed per answer (small). Like the answers' and
 * entries' framing below, a key the agent does not know is dropped, not refused: a control plane
 * one version ahead may send one, and refusing it would stop the node applying every tenant's
 * changes (docs/decisions.md "Plane framing and meta ignore unknown keys"). Every key it knows is
 * checked as strictly as before.
 */
export const planeMetaSchema = z.object({
  cacheEpoch: z.number().int().min(0).max(2_147_483_647),
  limits: edgeZoneLimitsSchema,
  forceSSLCode: edgeDomainSchema.shape.forceSSLCode,
  challenge: edgeChallengeSchema,
  geoDatabase: edgeGeoDatabaseSchema,
  abuseIPs: edgeAbuseIPsSchema,
  errorPages: z.array(edgeErrorPageSchema).optional(),
  /**
   * The operator allows origins on loopback and private addresses (routes/private-origins.ts):
   * the node's host-name origins may resolve to them. Absent: refused (sent only when allowed: an
   * agent older than the tolerant meta refuses only the plane of an operator that allows them).
   */
  allowPrivateOrigins: z.literal(true).optional(),
});
export type PlaneMeta = z.infer<typeof planeMetaSchema>;

const entryKey = z.string().min(1).max(300);
export const planeEntrySchema = z.object({
  kind: z.enum(PLANE_ENTRY_KINDS),
  key: entryKey,
  hash: planeHashSchema,
  value: z.unknown(),
});
export type PlaneEntry = { kind: PlaneEntryKind; key: string; hash: string; value: unknown };

export const planeChangeSchema = z.object({
  op: z.enum(['put', 'del']),
  kind: z.enum(PLANE_ENTRY_KINDS),
  key: entryKey,
  hash: planeHashSchema.optional(),
  value: z.unknown().optional(),
});
export type PlaneChange = z.infer<typeof planeChangeSchema>;

/** A sequence number of the control plane's change log (a decimal bigint). */
const seqSchema = z.string().regex(/^[0-9]{1,19}$/);

export const planeDeltaSchema = z.object({
  type: z.literal('delta'),
  from: seqSchema,
  to: seqSchema,
  meta: planeMetaSchema,
  metaHash: planeHashSchema,
  /** Puts replace, deletions of an absent entry do nothing: applying a change twice is harmless. */
  changes: z.array(planeChangeSchema),
  /** The plane hash after the delta (the sum of its entries' hashes mod 2^48). */
  planeHash: planeHashSchema,
});
export type PlaneDelta = z.infer<typeof planeDeltaSchema>;

export const planeFullSchema = z.object({
  type: z.literal('full'),
  to: seqSchema,
  meta: planeMetaSchema,
  metaHash: planeHashSchema,
  entries: z.array(planeEntrySchema),
  planeHash: planeHashSchema,
});
export type PlaneFull = z.infer<typeof planeFullSchema>;

export const planeAnswerSchema = z.discriminatedUnion('type', [planeDeltaSchema, planeFullSchema]);
export type PlaneAnswer = z.infer<typeof planeAnswerSchema>;

/** A plane's entries by `kind\0key`. */
export type PlaneEntries = Map<string, PlaneEntry>;

export const entryId = (kind: string, key: string): string => `${kind}\0${key}`;

/** Applies a delta's changes to `entries` (in place). */
export function applyPlaneChanges(entries: PlaneEntries, changes: readonly PlaneChange[]): void {
  for (const change of changes) {
    const id = entryId(change.kind, change.key);
    if (change.op === 'del') entries.delete(id);
    else entries.set(id, { kind: change.kind, key: change.key, hash: change.hash ?? '', value: change.value });
  }
}

/**
 * The entries' values of a whole data plane, by `kind\0key` (without hashes): what a node serves
 * as entries, for comparing the two paths. The ACME challenges are left out: the data plane does not
 * say which site a challenge's host is of (compare them as a list).
 */
export function planeEntryValues(plane: DataPlane): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const { forceSSLCode: _code, ...domain } of plane.domains) out.set(entryId('domain', domain.name), domain);
  for (const cert of plane.certificates) out.set(entryId('certificate', String(cert.id)), cert);
  for (const policy of plane.caches) out.set(entryId('cache', String(policy.id)), policy);
  for (const module of plane.modules) out.set(entryId('module', String(module.id)), module);
  for (const settings of plane.settings) out.set(entryId('settings', String(settings.id)), settings);
  for (const firewall of plane.firewalls) out.set(entryId('firewall', String(firewall.id)), firewall);
  return out;
}
