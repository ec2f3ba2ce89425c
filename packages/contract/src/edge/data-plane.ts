import { z } from 'zod';
import {
  CACHE_PATH_RE,
  CACHE_RULE_VALUES_MAX,
  CACHE_RULES_PER_SITE,
  CACHE_SUFFIX_RE,
  CACHE_TTL_SECONDS,
} from '../routes/site-cache.js';
import {
  ERROR_PAGE_LANGUAGES,
  ERROR_PAGE_MAX_BYTES,
  ERROR_PAGE_STATUSES,
  GZIP_MAX_MIN_LENGTH,
  GZIP_TYPES,
  isRatePattern,
  OPERATOR_ERROR_PAGES_MAX_BYTES,
  RATE_MAX_KBPS,
  RATE_MIN_KBPS,
  RATE_RULES_PER_SITE,
  utf8Bytes,
} from '../routes/site-settings.js';
import { ZONE_LIMIT_MAX } from '../routes/zones.js';
import { edgeDomainAuthSchema } from './auth.js';
import {
  CHALLENGE_WORK_BITS_DEFAULT,
  CHALLENGE_WORK_BITS_MAX,
  edgeChallengeSchema,
  noChallenge,
  zChallengeWorkBits,
} from './challenge.js';
import {
  DATA_PLANE_LIMITS,
  HOST_NAME_RE,
  hostName,
  id,
  isCertificateChain,
  KEY_BLOCK_RE,
  originAddress,
  originHost,
  VERSION_RE,
} from './data-plane-fields.js';
import { edgeDomainAccessSchema, edgeFirewallSchema, firewallChallenges } from './data-plane-firewall.js';
import { edgeGeoDatabaseSchema } from './geo.js';
import { edgeDomainModulesSchema, edgeModuleSchema } from './modules.js';
import { edgeAbuseIPsSchema } from './reputation.js';

export { DATA_PLANE_LIMITS, HOST_NAME_RE } from './data-plane-fields.js';
export type { EdgeDomainAccess, EdgeFirewall } from './data-plane-firewall.js';
export {
  edgeDomainAccessSchema,
  edgeFirewallSchema,
  emptyEdgeFirewall,
  firewallChallenges,
  REFERER_HOST_MAX,
  REFERER_HOST_RE,
} from './data-plane-firewall.js';

export const edgeUpstreamSchema = z.strictObject({
  ip: originAddress,
  port: z.number().int().min(1).max(65_535),
  weight: z.number().int().min(1).max(100),
  backup: z.boolean(),
});

export const edgeOriginSchema = z.strictObject({
  scheme: z.enum(['http', 'https']),
  host: originHost.nullable(),
  balance: z.enum(['round_robin', 'ip_hash']),
  /**
   * Port map: a client that came in on a listener of the scheme's protocol (http listeners for an
   * http origin, https for https) reaches the origin on the port it connected to, not the upstream's.
   */
  portMap: z.boolean().default(false),
  upstreams: z
    .array(edgeUpstreamSchema)
    .min(1)
    .max(DATA_PLANE_LIMITS.upstreamsPerDomain)
    .refine((list) => list.some((u) => !u.backup), 'at least one upstream must not be a backup'),
});

/**
 * A site's cache policy on the edge (see routes/site-cache.ts): rules already in the order the
 * edge tries them. Values are checked again here with the same patterns as the API, since the
 * router turns them into comparisons (never into nginx configuration or patterns).
 */
export const edgeCacheRuleSchema = z.strictObject({
  /** fileType rules arrive as suffix rules (the groups expanded by the control plane). */
  scope: z.enum(['all', 'directory', 'path', 'suffix']),
  /** Paths for directory/path; lower-case suffixes (file-type groups already expanded) otherwise. */
  values: z
    .array(z.string().max(256))
    .max(CACHE_RULE_VALUES_MAX * 8)
    .refine((values) => values.every((v) => CACHE_PATH_RE.test(v) || CACHE_SUFFIX_RE.test(v)), 'invalid value'),
  ttl: z
    .number()
    .int()
    .refine((n) => (CACHE_TTL_SECONDS as readonly number[]).includes(n), 'not a cache lifetime'),
  queryString: z.enum(['ignore', 'include']),
  bypass: z.boolean(),
  respectOrigin: z.boolean(),
});

export const edgeCachePolicySchema = z.strictObject({
  /** The site's id. */
  id,
  /** Part of every cache key of the site: a new generation clears the site's cache. */
  generation: z.number().int().min(1).max(2_147_483_647),
  rules: z.array(edgeCacheRuleSchema).min(1).max(CACHE_RULES_PER_SITE),
});

/** A page for one status, served verbatim as text/html (a site's own, or the operator's default). */
export const edgeErrorPageSchema = z.strictObject({
  status: z
    .number()
    .int()
    .refine((n) => (ERROR_PAGE_STATUSES as readonly number[]).includes(n), 'not an error page status'),
  body: z
    .string()
    .min(1)
    .refine((s) => utf8Bytes(s) <= ERROR_PAGE_MAX_BYTES, 'page too large'),
});
export type EdgeErrorPage = z.infer<typeof edgeErrorPageSchema>;

/**
 * A site's settings on the edge (see routes/site-settings.ts): compression, bandwidth limits, error
 * pages. Every value is data the Lua code compares or sends verbatim as a body (never nginx
 * configuration, never a pattern): types from an allowlist, patterns with one `*` at most.
 */
export const edgeSiteSettingsSchema = z.strictObject({
  /** The site's id. */
  id,
  /** null: no compression. */
  gzip: z
    .strictObject({
      types: z.array(z.enum(GZIP_TYPES)).min(1).max(GZIP_TYPES.length),
      minLength: z.number().int().min(0).max(GZIP_MAX_MIN_LENGTH),
    })
    .nullable(),
  /** Bandwidth caps; the lowest rate of the matching rules applies. */
  rates: z
    .array(
      z.strictObject({
        pattern: z.string().max(256).refine(isRatePattern, 'not a rate pattern'),
        kbps: z.number().int().min(RATE_MIN_KBPS).max(RATE_MAX_KBPS),
      }),
    )
    .max(RATE_RULES_PER_SITE),
  /** Language of the edge's own pages for the site's domains. */
  language: z.enum(ERROR_PAGE_LANGUAGES),
  /** The site's own pages, served verbatim as text/html. */
  pages: z.array(edgeErrorPageSchema).max(ERROR_PAGE_STATUSES.length),
});

export const edgeDomainSchema = z.strictObject({
  id,
  name: hostName,
  /**
   * false: the edge answers the domain's "domain disabled" page (with its certificate) and never
   * reaches an origin. Disabled domains travel without their origin (null).
   */
  enabled: z.boolean(),
  forceSSL: z.boolean(),
  forceSSLCode: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)]),
  certificateId: id.nullable(),
  /** The cache policy (site id) that applies, or null: then nothing of the domain is cached. */
  cacheId: id.nullable().default(null),
  /** The site modules bound to the domain (ids in `modules`), or null when it has none. */
  modules: edgeDomainModulesSchema,
  /** The site settings (site id) that apply, or null: the domain pays for none of them. */
  settingsId: id.nullable().default(null),
  /** The site firewall (site id) that applies, or null: the domain's requests pass unchecked. */
  firewallId: id.nullable().default(null),
  /**
   * The domain's own anti-referer and anti-header lists, only when it has any; such a domain also
   * names its site's firewall (an entry without rules when the site has none), where they run.
   */
  access: edgeDomainAccessSchema.optional(),
  /** The domain's auth rules and their groups, only when a rule covers it (edge/auth.ts). */
  auth: edgeDomainAuthSchema.optional(),
  /** Where the domain's requests go; null only for a disabled domain. */
  origin: edgeOriginSchema.nullable(),
});

export const edgeCertificateSchema = z.strictObject({
  id,
  certPem: z.string().max(DATA_PLANE_LIMITS.certPemBytes).refine(isCertificateChain, 'not a PEM certificate chain'),
  keyPem: z
    .string()
    .max(DATA_PLANE_LIMITS.keyPemBytes)
    .refine((pem) => KEY_BLOCK_RE.test(pem), 'not a PEM private key'),
});

/**
 * The zone's per-client-IP limits on the node (routes/zones.ts, docs/decisions.md "Zone limits"),
 * counted in fixed 60-second windows; 0 = off. Zone-level, not per domain: they apply to every
 * request and handshake the node sees, including those for hosts it does not serve. With them rides
 * the zone's challenge work (edge/challenge.ts), the bits of proof of work its challenge pages ask.
 * A limit the agent does not know is dropped, not refused (as every part of the plane's meta,
 * plane.ts planeMetaSchema): zones gain limits over time.
 */
export const edgeZoneLimitsSchema = z.object({
  invalidDomainPerMinute: z.number().int().min(0).max(ZONE_LIMIT_MAX),
  tlsHandshakesPerMinute: z.number().int().min(0).max(ZONE_LIMIT_MAX),
  /**
   * The zone's escalation of floods to the kernel (routes/firewall-l4.ts l4EscalationSchema): refusals
   * of one address within `escalationSeconds`; 0 or absent (an older control plane) = off.
   */
  escalationRefusals: z.number().int().min(0).max(ZONE_LIMIT_MAX).optional(),
  escalationSeconds: z.number().int().min(1).max(600).optional(),
  challengeWorkBits: zChallengeWorkBits.default(CHALLENGE_WORK_BITS_DEFAULT),
});
export const NO_ZONE_LIMITS = {
  invalidDomainPerMinute: 0,
  tlsHandshakesPerMinute: 0,
  challengeWorkBits: CHALLENGE_WORK_BITS_DEFAULT,
} as const;
/**
 * The longest limits a node can be sent: a snapshot's shared part is measured with them, so that
 * it fits every node whatever its zone sets (a field added to the schema must be added here).
 */
export const LARGEST_ZONE_LIMITS: Required<z.output<typeof edgeZoneLimitsSchema>> = {
  invalidDomainPerMinute: ZONE_LIMIT_MAX,
  tlsHandshakesPerMinute: ZONE_LIMIT_MAX,
  escalationRefusals: ZONE_LIMIT_MAX,
  escalationSeconds: 600,
  challengeWorkBits: CHALLENGE_WORK_BITS_MAX,
};

/** Most ACME HTTP-01 challenges a node holds at once (one per domain being issued). */
export const ACME_CHALLENGES_MAX = 10_000;
/** An ACME token: base64url (RFC 8555 §8.3), at least 128 bits of entropy. */
const ACME_TOKEN_RE = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * An ACME HTTP-01 challenge the node answers (docs/decisions.md "Automatic certificates"):
 * `GET http://<host>/.well-known/acme-challenge/<token>` answers `keyAuthorization` as text,
 * before any other rule of the host (firewall, redirects) and whether the host is served or not.
 */
export const edgeAcmeChallengeSchema = z.strictObject({
  host: z.string().max(DATA_PLANE_LIMITS.hostLength).regex(HOST_NAME_RE, 'not a host name'),
  token: z.string().regex(ACME_TOKEN_RE, 'not an ACME token'),
  /** `<token>.<account key thumbprint>` (base64url). */
  keyAuthorization: z.string().regex(/^[A-Za-z0-9_-]{16,128}\.[A-Za-z0-9_-]{16,128}$/, 'not a key authorization'),
});

/**
 * The whole data plane (the snapshot's): a top-level key the agent does not know is dropped, not
 * refused, as the plane's meta (plane.ts planeMetaSchema); the lists' items are checked strictly.
 */
export const dataPlaneSchema = z
  .object({
    version: z.string().min(1).max(DATA_PLANE_LIMITS.versionLength).regex(VERSION_RE, 'not a version token'),
    domains: z.array(edgeDomainSchema).max(DATA_PLANE_LIMITS.domains),
    certificates: z.array(edgeCertificateSchema).max(DATA_PLANE_LIMITS.certificates),
    caches: z.array(edgeCachePolicySchema).max(DATA_PLANE_LIMITS.domains).default([]),
    /** The node's cache epoch, part of every cache key: a higher one clears the node's whole cache. */
    cacheEpoch: z.number().int().min(0).max(2_147_483_647).default(0),
    modules: z.array(edgeModuleSchema).max(DATA_PLANE_LIMITS.domains).default([]),
    settings: z.array(edgeSiteSettingsSchema).max(DATA_PLANE_LIMITS.domains).default([]),
    firewalls: z.array(edgeFirewallSchema).max(DATA_PLANE_LIMITS.domains).default([]),
    limits: edgeZoneLimitsSchema.default(NO_ZONE_LIMITS),
    /** The keys that sign and check challenge passes (edge/challenge.ts); none without a challenge rule. */
    challenge: edgeChallengeSchema.default(noChallenge),
    /** The operator's geo database the node's geo rules use (edge/geo.ts), or null. */
    geoDatabase: edgeGeoDatabaseSchema,
    /** The operator's reputation list the node's IP trust protection uses (edge/reputation.ts), or null. */
    abuseIPs: edgeAbuseIPsSchema,
    /** ACME HTTP-01 challenges of the node's domains being issued (none most of the time). */
    acmeChallenges: z.array(edgeAcmeChallengeSchema).max(ACME_CHALLENGES_MAX).optional(),
    /**
     * The operator's default pages (routes/system-settings.ts `errorPages`): served for a status
     * when the request's site has no page of its own for it. Absent when the operator has none.
     */
    errorPages: z
      .array(edgeErrorPageSchema)
      .max(ERROR_PAGE_STATUSES.length)
      .refine(
        (pages) => pages.reduce((n, p) => n + utf8Bytes(p.body), 0) <= OPERATOR_ERROR_PAGES_MAX_BYTES,
        'pages too large',
      )
      .optional(),
  })
  .superRefine((doc, ctx) => {
    const certificateIds = new Set<number>();
    doc.certificates.forEach((cert, i) => {
      if (certificateIds.has(cert.id)) {
        ctx.addIssue({ code: 'custom', path: ['certificates', i, 'id'], message: 'duplicate certificate id' });
      }
      certificateIds.add(cert.id);
    });
    const cacheIds = new Set<number>();
    doc.caches.forEach((policy, i) => {
      if (cacheIds.has(policy.id)) {
        ctx.addIssue({ code: 'custom', path: ['caches', i, 'id'], message: 'duplicate cache policy id' });
      }
      cacheIds.add(policy.id);
    });
    const moduleTypes = new Map<number, string>();
    doc.modules.forEach((module, i) => {
      if (moduleTypes.has(module.id)) {
        ctx.addIssue({ code: 'custom', path: ['modules', i, 'id'], message: 'duplicate module id' });
      }
      moduleTypes.set(module.id, module.type);
    });
    const settingsIds = new Set<number>();
    doc.settings.forEach((settings, i) => {
      if (settingsIds.has(settings.id)) {
        ctx.addIssue({ code: 'custom', path: ['settings', i, 'id'], message: 'duplicate site settings id' });
      }
      settingsIds.add(settings.id);
    });
    const firewallIds = new Set<number>();
    doc.firewalls.forEach((firewall, i) => {
      if (doc.challenge.keys.length === 0 && firewallChallenges(firewall)) {
        ctx.addIssue({ code: 'custom', path: ['firewalls', i], message: 'a challenge rule without challenge keys' });
      }
      if (firewallIds.has(firewall.id)) {
        ctx.addIssue({ code: 'custom', path: ['firewalls', i, 'id'], message: 'duplicate firewall id' });
      }
      firewallIds.add(firewall.id);
    });
    const names = new Set<string>();
    const ids = new Set<number>();
    doc.domains.forEach((domain, i) => {
      if (names.has(domain.name)) {
        ctx.addIssue({ code: 'custom', path: ['domains', i, 'name'], message: 'duplicate domain name' });
      }
      if (ids.has(domain.id)) {
        ctx.addIssue({ code: 'custom', path: ['domains', i, 'id'], message: 'duplicate domain id' });
      }
      if (domain.certificateId !== null && !certificateIds.has(domain.certificateId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['domains', i, 'certificateId'],
          message: 'no certificate with this id in the document',
        });
      }
      if (domain.cacheId !== null && !cacheIds.has(domain.cacheId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['domains', i, 'cacheId'],
          message: 'no cache policy with this id in the document',
        });
      }
      for (const [type, moduleId] of Object.entries(domain.modules ?? {})) {
        if (moduleId !== null && moduleTypes.get(moduleId) !== type) {
          ctx.addIssue({
            code: 'custom',
            path: ['domains', i, 'modules', type],
            message: `no ${type} module with this id in the document`,
          });
        }
      }
      if (domain.enabled && domain.origin === null) {
        ctx.addIssue({
          code: 'custom',
          path: ['domains', i, 'origin'],
          message: 'an enabled domain needs its origin',
        });
      }
      if (domain.settingsId !== null && !settingsIds.has(domain.settingsId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['domains', i, 'settingsId'],
          message: 'no site settings with this id in the document',
        });
      }
      if (domain.access && domain.firewallId === null) {
        ctx.addIssue({ code: 'custom', path: ['domains', i, 'access'], message: 'access lists need a firewallId' });
      }
      if (domain.firewallId !== null && !firewallIds.has(domain.firewallId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['domains', i, 'firewallId'],
          message: 'no firewall with this id in the document',
        });
      }
      names.add(domain.name);
      ids.add(domain.id);
    });
  });

export type DataPlane = z.infer<typeof dataPlaneSchema>;
export type EdgeDomain = z.infer<typeof edgeDomainSchema>;
export type EdgeCachePolicy = z.infer<typeof edgeCachePolicySchema>;
export type EdgeCacheRule = z.infer<typeof edgeCacheRuleSchema>;
export type EdgeSiteSettings = z.infer<typeof edgeSiteSettingsSchema>;
export type EdgeZoneLimits = z.infer<typeof edgeZoneLimitsSchema>;
export type EdgeCertificate = z.infer<typeof edgeCertificateSchema>;
export type EdgeAcmeChallenge = z.infer<typeof edgeAcmeChallengeSchema>;
export type EdgeUpstream = z.infer<typeof edgeUpstreamSchema>;
