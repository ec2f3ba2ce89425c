import { z } from 'zod';
import { pageQuery } from '../http.js';
import { authParams, dataOf, HTTP_METHODS, pageOf, TIERS, tierSchema, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId } from '../validators/ids.js';
import { tokenSetSchema } from './auth.js';

/**
 * The audit log (spec part 1 §2 `logOperation`, part 2 "audit logs" with the filters
 * accountName, startTime, endTime, method, reqID, url) and switch user (part 1 §6 "switched to,
 * and proxied"). Records are written by the server for every state-changing call; the API has
 * no call that edits or deletes them.
 */

/** What a call came to: `ok`, the error code it answered, or `pending` while it runs (or if it never finished). */
export const auditOutcomeSchema = z.union([z.literal('ok'), z.literal('pending'), z.number().int()]);

export const auditRecordSchema = z.object({
  id: z.number().int(),
  /** The account the call acted as. */
  accountID: z.number().int(),
  accountName: z.string(),
  tier: tierSchema,
  /** The person really acting when the call came through switch user; null otherwise. */
  realAccountID: z.number().int().nullable(),
  realAccountName: z.string().nullable(),
  /** The contract's route id, e.g. `client.zone.create`. */
  action: z.string(),
  method: z.enum(HTTP_METHODS),
  /** Path of the call without its query string. */
  url: z.string(),
  /** Path parameters: which object the call named. */
  target: z.record(z.string(), z.unknown()),
  /** The request body, secrets replaced by `[redacted]`. */
  changes: z.unknown(),
  /**
   * What the call changed in the database, row by row: the changed columns before and after
   * (`before` null for an insert, `after` null for a delete), secret-named fields `[redacted]`.
   * Empty for a call that changed nothing, and for the few calls that run outside one transaction.
   */
  rowChanges: z.array(
    z.object({
      table: z.string(),
      op: z.enum(['insert', 'update', 'delete']),
      id: z.string(),
      before: z.record(z.string(), z.unknown()).nullable(),
      after: z.record(z.string(), z.unknown()).nullable(),
    }),
  ),
  ip: z.string(),
  reqID: z.string(),
  /** HTTP status answered (0 while pending). */
  status: z.number().int(),
  /** The error code answered, 0 on success. */
  code: z.number().int(),
  pending: z.boolean(),
  createdAt: z.string(),
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;

const isoTime = z.string().datetime({ offset: true });

export const auditQuery = pageQuery.extend({
  /** Account name (login name or display name), partial match. */
  accountName: z.string().trim().max(256).optional(),
  startTime: isoTime.optional(),
  endTime: isoTime.optional(),
  method: z.enum(HTTP_METHODS).optional(),
  /** Part of the path or of the route id. */
  url: z.string().trim().max(512).optional(),
  reqID: z.string().trim().max(64).optional(),
});
export type AuditQuery = z.input<typeof auditQuery>;

const route = routeFamily({
  tags: ['audit'],
  read: tiers(TIERS, 'accounts.read'),
  write: tiers(TIERS, 'accounts.read'),
  params: authParams,
});

export const listAuditLogs = route.get('auth.auditLogs.list', '/{auth}/auditLogs', {
  summary:
    'Audit records the caller may see (its own and those of every account below it), newest first, filtered and paged',
  query: auditQuery,
  response: pageOf(auditRecordSchema),
});

/**
 * The same search as a POST with the filters in the body, as the spec writes it ("POST auditLogs",
 * §7 "Logs", beside the access and WAF log searches): it changes nothing and is not audited.
 */
export const searchAuditLogs = route.post('auth.auditLogs.search', '/{auth}/auditLogs', {
  summary: 'The audit records of listAuditLogs, with the filters and the page in the body',
  body: auditQuery,
  response: pageOf(auditRecordSchema),
});

/** How long a switched session lives, however often it is refreshed. */
export const SWITCH_USER_SESSION_SECONDS = 3600;

export const switchUser = route.post('auth.switchUser', '/{auth}/proxy', {
  access: tiers(TIERS, 'accounts.write'),
  summary:
    "Switch user: mints a short-lived token pair for an account below the caller (the admin's operator, an operator's customer, a customer's own sub-user); every call made with it is audited with the caller as the real actor",
  tags: ['auth'],
  body: z.object({ id: zId }),
  response: dataOf(tokenSetSchema.extend({ auth: tierSchema })),
});

export const auditRoutes = { listAuditLogs, searchAuditLogs, switchUser } as const;
