import { z } from 'zod';
import { orderBySchema, pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIdParam, zIds } from '../validators/ids.js';
import { checkLogRange, LOG_URL_MATCHES, logClientFilters, logFilterBase, logWafFilters } from './logs.js';

/**
 * Log export files (spec part 2 §3 "Log export entry", §4 "exports can be retried", §7 "Logs":
 * `POST user/log/export/file`, `GET user/log/exports`, `GET user/log/export/{id}`,
 * `GET user/log/export/file/{id}`, `DELETE user/log/exports`, `POST user/log/export/file/retry`;
 * docs/decisions.md "Log export files"). An export is the log search's filters over a time range
 * (routes/logs.ts) written by a background job to a file — CSV or JSON lines, gzip by default —
 * that the customer downloads until it expires. Quotas: at most LOG_EXPORT_ACTIVE_MAX exports
 * queued or running per account (601001 with that number), at most the account's
 * `maxLogExportTimes` created per UTC day (601002 with that number).
 *
 * The operator has the same calls on the `client` prefix (the console's operator logExport page;
 * the spec names the customer's only): its exports cover its sites, narrowed by zones and one
 * customer as its log search is, and a zone-restricted sub-account's by its zones.
 */

export const LOG_EXPORT_TYPES = ['access', 'waf'] as const;
export type LogExportType = (typeof LOG_EXPORT_TYPES)[number];
export const LOG_EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type LogExportFormat = (typeof LOG_EXPORT_FORMATS)[number];
export const LOG_EXPORT_STATUSES = ['queued', 'running', 'done', 'failed', 'expired'] as const;
export type LogExportStatus = (typeof LOG_EXPORT_STATUSES)[number];
/** Exports queued or running at once per account (601001 carries it as `num`). */
export const LOG_EXPORT_ACTIVE_MAX = 3;
/** Ids one delete or retry names. */
export const LOG_EXPORT_IDS_MAX = 100;
export const LOG_EXPORT_SORT_FIELDS = ['createdAt', 'finishedAt', 'records', 'bytes', 'status'] as const;

/** What an export covers: the log search's filters (the WAF ones apply to WAF exports only). */
export const logExportFilterSchema = logFilterBase.omit({ page: true, pageSize: true }).extend(logWafFilters);
/** An operator's export: its log search's zone and customer filters besides. */
export const clientLogExportFilterSchema = logExportFilterSchema.extend(logClientFilters);
export type LogExportFilter = z.output<typeof clientLogExportFilterSchema>;

const exportChoice = {
  type: z.enum(LOG_EXPORT_TYPES),
  format: z.enum(LOG_EXPORT_FORMATS).default('csv'),
  gzip: z.boolean().default(true),
};
const createBody = logExportFilterSchema.extend(exportChoice).superRefine(checkLogRange);
const clientCreateBody = clientLogExportFilterSchema.extend(exportChoice).superRefine(checkLogRange);
export type LogExportCreate = z.output<typeof clientCreateBody>;

export const logExportSchema = z.object({
  id: z.number().int(),
  type: z.enum(LOG_EXPORT_TYPES),
  format: z.enum(LOG_EXPORT_FORMATS),
  gzip: z.boolean(),
  status: z.enum(LOG_EXPORT_STATUSES),
  /** Records written out of those counted when the export started, 0–100 (100 once done). */
  progress: z.number().int().min(0).max(100),
  /** Records written so far (all of them once done). */
  records: z.number().int(),
  /** The file's size in bytes once done, 0 before. */
  bytes: z.number().int(),
  /** The name the download carries (Content-Disposition). */
  fileName: z.string(),
  /** Why a failed export failed, else null. */
  error: z.string().nullable(),
  /** The time range (spec "Log export entry": startTime, endTime) and the filters. */
  startTime: z.string(),
  endTime: z.string(),
  /** The filters (a customer's export has no zones and no customer: `zoneIDs` empty). */
  filter: clientLogExportFilterSchema.extend({ urlMatch: z.enum(LOG_URL_MATCHES) }),
  createdAt: z.string(),
  /** When the job started writing it (the last attempt), finished it, and when the file goes. */
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type LogExport = z.infer<typeof logExportSchema>;

const idParams = z.object({ id: zIdParam });
const idsBody = z.object({ ids: zIds(LOG_EXPORT_IDS_MAX) });

const route = routeFamily({ tags: ['logs'] });

/**
 * The export calls of one console: the customer's on `user/` (its sites; `user.logs.*` keys) and
 * the operator's on `client/` (its sites, zones and customers; `client.logs.*` keys).
 */
function exportRoutes<T extends 'user' | 'client'>(tier: T) {
  const access = {
    read: tiers([tier], `${tier}.logs.read`),
    write: tiers([tier], `${tier}.logs.write`),
  };
  const createLogExport = route.post(`${tier}.logExports.create`, `/${tier}/log/export/file`, {
    access: access.write,
    codes: [601001, 601002],
    summary:
      "Queues an export of the caller's access or WAF log (the log search's filters over at most LOG_RANGE_MAX_DAYS) to a CSV or JSON lines file, gzip by default; 601001 when LOG_EXPORT_ACTIVE_MAX are queued or running, 601002 when the account made its maxLogExportTimes today (UTC)",
    body: (tier === 'user' ? createBody : clientCreateBody) as typeof clientCreateBody,
    response: dataOf(logExportSchema),
  });

  const listLogExports = route.get(`${tier}.logExports.list`, `/${tier}/log/exports`, {
    access: access.read,
    summary: "The caller's log exports, paged, newest first unless sorted otherwise; optionally of one type",
    query: pageQuery.extend({
      sortBy: z.enum(LOG_EXPORT_SORT_FIELDS).default('createdAt'),
      orderBy: orderBySchema.default('desc'),
      type: z.enum(LOG_EXPORT_TYPES).optional(),
    }),
    response: pageOf(logExportSchema),
  });

  const getLogExport = route.get(`${tier}.logExports.get`, `/${tier}/log/export/{id}`, {
    access: access.read,
    summary:
      "One of the caller's log exports with its progress (another account's id answers 101018, as an unknown one)",
    params: idParams,
    response: dataOf(logExportSchema),
  });

  const downloadLogExport = route.get(`${tier}.logExports.download`, `/${tier}/log/export/file/{id}`, {
    access: access.read,
    summary:
      'The file of a finished export, streamed (text/csv, application/x-ndjson or application/gzip), its name in Content-Disposition; 101003 (exportNotReady) before it is done or after it expired',
    params: idParams,
    response: z.string(),
    reply: 'raw',
  });

  const deleteLogExports = route.delete(`${tier}.logExports.delete`, `/${tier}/log/exports`, {
    access: access.write,
    summary:
      'Deletes exports and their files, all or none (an id of another account or an unknown one answers 101018); a running one stops',
    body: idsBody,
    response: okReply,
  });

  const retryLogExports = route.post(`${tier}.logExports.retry`, `/${tier}/log/export/file/retry`, {
    access: access.write,
    codes: [601001],
    summary:
      "Queues the failed exports among ids again (others are left as they are; an id of another account answers 101018); a retry does not count against the day's quota but does against LOG_EXPORT_ACTIVE_MAX (601001)",
    body: idsBody,
    response: dataOf(z.array(logExportSchema)),
  });

  return { createLogExport, listLogExports, getLogExport, downloadLogExport, deleteLogExports, retryLogExports };
}

const userExports = exportRoutes('user');
const clientExports = exportRoutes('client');
export const { createLogExport, listLogExports, getLogExport, downloadLogExport, deleteLogExports, retryLogExports } =
  userExports;

export const logExportRoutes = {
  createLogExport,
  listLogExports,
  getLogExport,
  downloadLogExport,
  deleteLogExports,
  retryLogExports,
} as const;

/** The operator's export calls (`client/log/export*`). */
export const clientLogExportRoutes = {
  clientCreateLogExport: clientExports.createLogExport,
  clientListLogExports: clientExports.listLogExports,
  clientGetLogExport: clientExports.getLogExport,
  clientDownloadLogExport: clientExports.downloadLogExport,
  clientDeleteLogExports: clientExports.deleteLogExports,
  clientRetryLogExports: clientExports.retryLogExports,
} as const;
