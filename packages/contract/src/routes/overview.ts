import { z } from 'zod';
import { SELF_PERMISSION } from '../permissions.js';
import { dataOf, defineRoute, tiers } from '../route.js';

/**
 * The operator's overview: what the dashboard shows at a glance until the analytics charts exist,
 * and the first-run checklist (zone → group → node → product → site → domain → certificate, and
 * the CNAME domain). Not in the spec, which only names the dashboard's widget layout
 * (`client/dashboard`); see docs/decisions.md "The operator's overview".
 *
 * Every signed-in operator account may read it; each part needs the read key of what it counts
 * (`null` without it), and a sub-account limited to some zones counts only their nodes.
 */

/** A certificate counts as expiring within this many days of its `notAfter`. */
export const OVERVIEW_CERT_EXPIRY_DAYS = 30;
/** At most this many nodes are listed as needing attention (offline or reporting an error). */
export const OVERVIEW_NODE_PROBLEMS_MAX = 10;

export const overviewChecklistSchema = z.object({
  zone: z.boolean(),
  group: z.boolean(),
  /** A node placed in a zone and group (initialised). */
  node: z.boolean(),
  product: z.boolean(),
  site: z.boolean(),
  domain: z.boolean(),
  certificate: z.boolean(),
  /** The operator set its own CNAME domain (until then targets end in the placeholder domain). */
  cnameDomain: z.boolean(),
  /**
   * The operator chose whether its customers' domains need proof of control before they are served
   * (client/setting/domainProof); until then the installation's default (RAMPART_DOMAIN_PROOF) holds.
   */
  domainProof: z.boolean(),
});

export const overviewNodeProblemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  ip: z.string(),
  connection: z.enum(['online', 'offline']),
  /** The agent's last apply error; empty when it reported none. */
  lastError: z.string(),
  lastSeenAt: z.string().nullable(),
});

export const overviewSchema = z.object({
  checklist: overviewChecklistSchema,
  /** Whether new domains of the operator's customers wait for proof of control now (chosen or the default). */
  domainProofRequired: z.boolean(),
  nodes: z
    .object({
      total: z.number().int(),
      online: z.number().int(),
      offline: z.number().int(),
      uninitialized: z.number().int(),
      /** Initialised nodes offline or reporting an error, offline first, longest silent first. */
      problems: z.array(overviewNodeProblemSchema),
      /** Agent versions in use, most nodes first. */
      versions: z.array(z.object({ version: z.string(), nodes: z.number().int() })),
    })
    .nullable(),
  sites: z
    .object({
      sites: z.number().int(),
      domains: z.number().int(),
      /** Domains whose proof of control is pending or was lost (they are not served). */
      proofPending: z.number().int(),
      /** Domains whose CNAME was never checked or does not point at its target. */
      cnameUnverified: z.number().int(),
    })
    .nullable(),
  certificates: z
    .object({
      total: z.number().int(),
      /** Still valid, ending within OVERVIEW_CERT_EXPIRY_DAYS days. */
      expiringSoon: z.number().int(),
      expired: z.number().int(),
    })
    .nullable(),
});
export type Overview = z.infer<typeof overviewSchema>;

export const getClientOverview = defineRoute({
  id: 'client.overview.get',
  method: 'GET',
  path: '/client/overview',
  access: tiers(['client'], SELF_PERMISSION),
  codes: [],
  summary: "The operator's overview: nodes, sites, domains and certificates at a glance, and the first-run checklist",
  tags: ['dashboard'],
  request: {},
  response: dataOf(overviewSchema),
});

export const overviewRoutes = { getClientOverview } as const;
