import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, type TiersAccess, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIds } from '../validators/ids.js';
import { zName } from '../validators/zod.js';
import {
  LOG_PUSH_IDS_MAX,
  LOG_PUSH_LIST_MAX,
  LOG_PUSH_LOG_STATUSES,
  LOG_PUSH_STATES,
  LOG_PUSH_STATUS_CLASSES,
  LOG_PUSH_TYPES,
  type LogPushFilters,
  type LogPushType,
  logPushDestinationInSchema,
  logPushDestinationSchema,
  logPushFiltersSchema,
} from './log-push-schemas.js';
import { checkLogRange } from './logs.js';

export type {
  LogPushDestination,
  LogPushDestinationIn,
  LogPushFilters,
  LogPushKind,
  LogPushLogStatus,
  LogPushState,
  LogPushType,
  SyslogTransport,
} from './log-push-schemas.js';
export {
  LOG_PUSH_EVENTS_MAX,
  LOG_PUSH_IDS_MAX,
  LOG_PUSH_KINDS,
  LOG_PUSH_LIST_MAX,
  LOG_PUSH_LOG_STATUSES,
  LOG_PUSH_SIGNATURE_HEADER,
  LOG_PUSH_STATES,
  LOG_PUSH_STATUS_CLASSES,
  LOG_PUSH_TYPES,
  logPushDestinationInSchema,
  logPushDestinationSchema,
  logPushFiltersSchema,
  SYSLOG_TRANSPORTS,
  zPushHost,
  zPushUrl,
} from './log-push-schemas.js';

/**
 * Log push (spec part 2 §3 "Log push event and log: eventID, userID, createdAt, createdAtStart,
 * createdAtEnd, ID", §7 "Log push": `GET/POST/PUT/DELETE {user,client}/logPush/events`,
 * `POST {user,client}/logPush/manuallyPush`, `GET {user,client}/logPush/logs`; and
 * `POST {user,client}/logPush/test`, the console's "send a test" (issue 21);
 * docs/decisions.md "Log push").
 *
 * A push "event" (the spec's word) is a push target: which log (access, WAF, or the account's own
 * audit log), over which of the owner's sites (a customer) or zones (the operator; empty = all of
 * them), with which filters, and where it goes — an HTTP(S) webhook (gzip JSON lines signed with
 * HMAC-SHA256), syslog (RFC 5424 over TCP, TLS or UDP), Elasticsearch/OpenSearch `_bulk` or Splunk
 * HEC. A "log" is one delivery log row: one batch attempt's outcome (delivered, retrying, dead).
 * Delivery is at-least-once and ordered per event. Secrets (the webhook's signing secret and
 * header value, passwords, API keys, tokens) are write-only: answers carry `hasSecret` instead,
 * and an update that leaves a secret out keeps the stored one.
 */

const scopeIds = z.array(zId).max(LOG_PUSH_LIST_MAX, { message: 'tooMany' }).default([]);

function eventShape<S extends z.ZodRawShape>(scope: S) {
  return z.object({
    name: zName,
    enabled: z.boolean().default(true),
    type: z.enum(LOG_PUSH_TYPES),
    ...scope,
    filters: logPushFiltersSchema,
    destination: logPushDestinationInSchema,
  });
}
/** The audit log takes no scope and no filters (it is the account's own). */
function checkAuditScope(
  v: { type: LogPushType; siteIDs?: number[]; zoneIDs?: number[]; filters: LogPushFilters },
  ctx: z.RefinementCtx,
): void {
  const f = v.filters;
  const scoped = (v.siteIDs?.length ?? 0) + (v.zoneIDs?.length ?? 0) > 0;
  if (v.type === 'audit' && (scoped || f.statusClasses.length + f.methods.length + f.domains.length > 0)) {
    ctx.addIssue({ code: 'custom', path: ['type'], message: 'invalidValue' });
  }
}
const userEventShape = eventShape({ siteIDs: scopeIds });
const clientEventShape = eventShape({ zoneIDs: scopeIds });
const userEventBody = userEventShape.superRefine(checkAuditScope);
const clientEventBody = clientEventShape.superRefine(checkAuditScope);
const userEventUpdate = userEventShape.extend({ id: zId }).superRefine(checkAuditScope);
const clientEventUpdate = clientEventShape.extend({ id: zId }).superRefine(checkAuditScope);
/** What the service takes (a customer's has siteIDs, the operator's zoneIDs). */
export type LogPushEventCreate = Omit<z.output<typeof userEventShape>, 'siteIDs'> & {
  siteIDs?: number[];
  zoneIDs?: number[];
};

export const logPushEventSchema = z.object({
  id: z.number().int(),
  /** The owner: the customer's account, or the operator's for an operator event. */
  userID: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  type: z.enum(LOG_PUSH_TYPES),
  /** A customer's sites (empty: all of them); [] on an operator event. */
  siteIDs: z.array(z.number().int()),
  /** The operator's zones (empty: all of them); [] on a customer's event. */
  zoneIDs: z.array(z.number().int()),
  filters: z.object({
    statusClasses: z.array(z.enum(LOG_PUSH_STATUS_CLASSES)),
    methods: z.array(z.string()),
    domains: z.array(z.string()),
  }),
  destination: logPushDestinationSchema,
  state: z.enum(LOG_PUSH_STATES),
  /** The last failed attempt's error while retrying or dead, else null. */
  lastError: z.string().nullable(),
  /** When a batch last reached the receiver. */
  lastDeliveredAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type LogPushEvent = z.infer<typeof logPushEventSchema>;

export const logPushLogSchema = z.object({
  /** The spec's ID. */
  id: z.number().int(),
  eventID: z.number().int(),
  userID: z.number().int(),
  eventName: z.string(),
  /** When the attempt ended (the spec's createdAt). */
  createdAt: z.string(),
  status: z.enum(LOG_PUSH_LOG_STATUSES),
  /** The batch's attempt number (1 for the first). */
  attempt: z.number().int(),
  records: z.number().int(),
  /** Bytes sent (the encoded body, before gzip). */
  bytes: z.number().int(),
  /** Why the attempt failed, else null. */
  error: z.string().nullable(),
  /** The records' time range (their event times), null for an empty batch. */
  rangeStart: z.string().nullable(),
  rangeEnd: z.string().nullable(),
  /** True for a batch of a manual push. */
  manual: z.boolean(),
});
export type LogPushLog = z.infer<typeof logPushLogSchema>;

/** What a test push answers: whether the destination took one sample record, and why not. */
export const logPushTestResultSchema = z.object({
  ok: z.boolean(),
  /** The error when it did not (the same text a delivery log row would carry), else null. */
  error: z.string().nullable(),
  /** How long the attempt took. */
  ms: z.number().int(),
});
export type LogPushTestResult = z.infer<typeof logPushTestResultSchema>;

const isoTime = z.string().datetime({ offset: true });
const logsQueryBase = pageQuery.extend({
  eventID: z.coerce.number().int().positive().optional(),
  createdAtStart: isoTime.optional(),
  createdAtEnd: isoTime.optional(),
  ID: z.coerce.number().int().positive().optional(),
  status: z.enum(LOG_PUSH_LOG_STATUSES).optional(),
});
const userLogsQuery = logsQueryBase;
const clientLogsQuery = logsQueryBase.extend({ userID: z.coerce.number().int().positive().optional() });
/** What the delivery log list takes (userID on the operator's side only). */
export type LogPushLogsQuery = z.output<typeof clientLogsQuery>;

const manualBody = z.object({ id: zId, startTime: isoTime, endTime: isoTime }).superRefine(checkLogRange);
export type LogPushManual = z.output<typeof manualBody>;
const idsBody = z.object({ ids: zIds(LOG_PUSH_IDS_MAX) });
const testBody = z.object({ id: zId });

const userAccess = {
  read: tiers(['user'], 'user.logPush.read'),
  write: tiers(['user'], 'user.logPush.write'),
};
const clientAccess = {
  read: tiers(['client'], 'client.logPush.read'),
  write: tiers(['client'], 'client.logPush.write'),
};

const route = routeFamily({ tags: ['logs'] });

function routesFor<
  P extends 'user' | 'client',
  A extends TiersAccess<readonly [P]>,
  B extends z.ZodType<Record<string, unknown>>,
  U extends z.ZodType<Record<string, unknown>>,
  Q extends z.ZodType<Record<string, unknown>>,
>(prefix: P, access: { read: A; write: A }, body: B, update: U, logsQuery: Q) {
  const whose = prefix === 'user' ? "the caller's" : "the operator's";
  return {
    list: route.get(`${prefix}.logPush.list`, `/${prefix}/logPush/events`, {
      access: access.read,
      summary: `${whose} log push events (targets), paged, newest first`,
      query: pageQuery,
      response: pageOf(logPushEventSchema),
    }),
    create: route.post(`${prefix}.logPush.create`, `/${prefix}/logPush/events`, {
      access: access.write,
      codes: [101029],
      summary: `Creates a log push event of ${whose}: the log, ${prefix === 'user' ? 'sites' : 'zones'}, filters and destination; pushing starts from now; 101029 beyond LOG_PUSH_EVENTS_MAX per account`,
      body,
      response: dataOf(logPushEventSchema),
    }),
    update: route.put(`${prefix}.logPush.update`, `/${prefix}/logPush/events`, {
      access: access.write,
      summary: `Replaces a log push event of ${whose} (secrets left out are kept); a dead event becomes active again and resends from the batch that died`,
      body: update,
      response: dataOf(logPushEventSchema),
    }),
    delete: route.delete(`${prefix}.logPush.delete`, `/${prefix}/logPush/events`, {
      access: access.write,
      summary: `Deletes log push events of ${whose}, all or none (another account's id answers 101018 as an unknown one), with their delivery log`,
      body: idsBody,
      response: okReply,
    }),
    manual: route.post(`${prefix}.logPush.manual`, `/${prefix}/logPush/manuallyPush`, {
      access: access.write,
      summary:
        'Pushes the records of a time range (by event time, at most LOG_RANGE_MAX_DAYS) again to an event, through the same batches, after the batch in flight',
      body: manualBody,
      response: okReply,
    }),
    test: route.post(`${prefix}.logPush.test`, `/${prefix}/logPush/test`, {
      access: access.write,
      sendsOnDemand: true,
      summary:
        'Sends one sample record of the event\'s log to its destination now (the console\'s "send a test"), outside the delivery order and the delivery log; answers whether it was taken and the error if not',
      body: testBody,
      response: dataOf(logPushTestResultSchema),
    }),
    logs: route.get(`${prefix}.logPush.logs`, `/${prefix}/logPush/logs`, {
      access: access.read,
      summary: `The delivery log of ${whose} push events${prefix === 'client' ? " (and the operator's customers' events, by userID)" : ''}: one row per batch attempt, newest first, paged`,
      query: logsQuery,
      response: pageOf(logPushLogSchema),
    }),
  };
}

const userRoutes = routesFor('user', userAccess, userEventBody, userEventUpdate, userLogsQuery);
const clientRoutes = routesFor('client', clientAccess, clientEventBody, clientEventUpdate, clientLogsQuery);

export const userListLogPushEvents = userRoutes.list;
export const userCreateLogPushEvent = userRoutes.create;
export const userUpdateLogPushEvent = userRoutes.update;
export const userDeleteLogPushEvents = userRoutes.delete;
export const userManualLogPush = userRoutes.manual;
export const userTestLogPush = userRoutes.test;
export const userLogPushLogs = userRoutes.logs;
export const clientListLogPushEvents = clientRoutes.list;
export const clientCreateLogPushEvent = clientRoutes.create;
export const clientUpdateLogPushEvent = clientRoutes.update;
export const clientDeleteLogPushEvents = clientRoutes.delete;
export const clientManualLogPush = clientRoutes.manual;
export const clientTestLogPush = clientRoutes.test;
export const clientLogPushLogs = clientRoutes.logs;

export const logPushRoutes = {
  userListLogPushEvents,
  userCreateLogPushEvent,
  userUpdateLogPushEvent,
  userDeleteLogPushEvents,
  userManualLogPush,
  userTestLogPush,
  userLogPushLogs,
  clientListLogPushEvents,
  clientCreateLogPushEvent,
  clientUpdateLogPushEvent,
  clientDeleteLogPushEvents,
  clientManualLogPush,
  clientTestLogPush,
  clientLogPushLogs,
} as const;
