import { z } from 'zod';
import { dataOf, defineRoute, tiers } from '../route.js';

/**
 * The operator's system health page (spec part 2 §7 "GET health"; part 1 §2 `systemHealth`;
 * docs/decisions.md "System health"): one check per part, each ok, warn or error with an English
 * message for API callers and its numbers in `details`, from which the console writes its own text.
 * Operator-scoped: nodes, certificates, DNS and the licence are the caller's operator's.
 */
export const HEALTH_PARTS = [
  'configStore',
  'analyticsStore',
  'jobQueue',
  'nodes',
  'certificates',
  'dns',
  'licence',
] as const;
export type HealthPart = (typeof HEALTH_PARTS)[number];
export const HEALTH_STATUSES = ['ok', 'warn', 'error'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** A valid automatic certificate this close to its expiry is reported (renewal should have run by then). */
export const HEALTH_CERT_EXPIRING_DAYS = 14;
/** A licence this close to its expiry is a warning. */
export const HEALTH_LICENCE_WARN_DAYS = 30;
/** Node commands queued beyond this many are a warning. */
export const HEALTH_QUEUE_WARN = 1000;

export const healthCheckSchema = z.object({
  part: z.enum(HEALTH_PARTS),
  status: z.enum(HEALTH_STATUSES),
  message: z.string(),
  /** The numbers behind the status (counts, days); null where not known. */
  details: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
});
export type HealthCheck = z.infer<typeof healthCheckSchema>;

export const systemHealthSchema = z.object({
  /** The worst status of the checks. */
  status: z.enum(HEALTH_STATUSES),
  checks: z.array(healthCheckSchema),
  checkedAt: z.string(),
});
export type SystemHealth = z.infer<typeof systemHealthSchema>;

export const getSystemHealth = defineRoute({
  id: 'client.health',
  method: 'GET',
  path: '/client/health',
  access: tiers(['client'], 'client.settings.read'),
  codes: [],
  summary:
    "The health of the operator's installation: config store, analytics store, job queue, its nodes, " +
    'automatic certificates, DNS publication and licence, each ok, warn or error',
  tags: ['settings'],
  request: {},
  response: dataOf(systemHealthSchema),
});

export const systemHealthRoutes = { getSystemHealth } as const;
