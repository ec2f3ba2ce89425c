import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';

/**
 * The log setting (spec part 2 §7 "Log setting with logParts", "CDNRayLog (with delete by
 * table/part and deleteMultiple (items))"): how long the analytics store keeps the edge's request
 * events and their rollups, and its parts — one per table and UTC day — listed and deleted by hand
 * (docs/decisions.md "The log setting: retention and parts").
 *
 * The analytics store is the installation's (every operator's sites' events are in it), so these
 * calls are the installation's operator's: the first operator (the seeded `client`) and its
 * sub-accounts holding `client.settings.read` / `.write`. Another operator is answered 101018.
 */

/** The analytics store's tables that are kept by day: raw events, then the rollups (rollups.ts). */
export const LOG_TABLES = [
  'events',
  'rollup_1m',
  'rollup_5m',
  'rollup_1h',
  'rollup_1d',
  'siterollup_5m',
  'lowdims_1h',
  'dims_1h',
  'dims_1d',
  'sitedims_1d',
] as const;
export type LogTable = (typeof LOG_TABLES)[number];
/** Tables whose parts the rollup retention governs (every one but `events`). */
export const LOG_ROLLUP_TABLES: readonly LogTable[] = LOG_TABLES.filter((t) => t !== 'events');

/**
 * Days raw events are kept: at least a day (top lists of ranges up to a day read them whole, and
 * the partial hours at their ends; the server's analytics/store/statistics-sql.ts
 * ROUND_START_AFTER_SECONDS), at most a year.
 */
export const RAW_RETENTION_DAYS_DEFAULT = 30;
export const RAW_RETENTION_DAYS_MIN = 1;
export const RAW_RETENTION_DAYS_MAX = 365;
/**
 * Days rollups are kept: at least 62 (the whole of last month, which the resource summary's
 * traffic reads, is never more than 62 days back), at most about three years. Never fewer than the
 * raw events' days: statistics read rollups for every range.
 */
export const ROLLUP_RETENTION_DAYS_DEFAULT = 400;
export const ROLLUP_RETENTION_DAYS_MIN = 62;
export const ROLLUP_RETENTION_DAYS_MAX = 1100;
/** Most parts one delete names. */
export const LOG_PARTS_DELETE_MAX = 500;

/** A part's name: its UTC day as `YYYYMMDD`. */
export const LOG_PART_RE = /^\d{8}$/;

/** Whether `part` is `YYYYMMDD` naming a real day (20240230 is not), from 1970 on. */
export function isLogPart(part: string): boolean {
  if (!LOG_PART_RE.test(part)) return false;
  const year = Number(part.slice(0, 4));
  const month = Number(part.slice(4, 6));
  const day = Number(part.slice(6, 8));
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1970 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** The unix second a part's UTC day starts. */
export function logPartStart(part: string): number {
  return Date.UTC(Number(part.slice(0, 4)), Number(part.slice(4, 6)) - 1, Number(part.slice(6, 8))) / 1000;
}

/** The part (UTC day, `YYYYMMDD`) a unix second falls in. */
export function logPartOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10).replaceAll('-', '');
}

const zLogTable = z.enum(LOG_TABLES, { error: (issue) => (issue.input === undefined ? 'required' : 'invalidValue') });
const zLogPart = z
  .string({ error: (issue) => (issue.input === undefined ? 'required' : 'invalid_type') })
  .refine(isLogPart, { message: 'wrongFormat' });

export const logRetentionSchema = z
  .object({
    rawRetentionDays: z.number().int().min(RAW_RETENTION_DAYS_MIN).max(RAW_RETENTION_DAYS_MAX),
    rollupRetentionDays: z.number().int().min(ROLLUP_RETENTION_DAYS_MIN).max(ROLLUP_RETENTION_DAYS_MAX),
  })
  .superRefine((value, ctx) => {
    if (value.rollupRetentionDays < value.rawRetentionDays) {
      ctx.addIssue({
        code: 'custom',
        path: ['rollupRetentionDays'],
        message: 'tooSmall',
        params: { key: 'tooSmall', min: value.rawRetentionDays },
      });
    }
  });
export type LogRetention = z.infer<typeof logRetentionSchema>;

/** One part of the store: a table's rows of one UTC day. */
export const logPartSchema = z.object({
  table: z.enum(LOG_TABLES),
  /** The UTC day, `YYYYMMDD`. */
  part: z.string(),
  /** Rows stored (a rollup table's rows are partial sums until merged, see docs). */
  rows: z.number().int(),
  /** Bytes on disk where the store can say (ClickHouse); null where it cannot (DuckDB). */
  bytes: z.number().int().nullable(),
});
export type LogPart = z.infer<typeof logPartSchema>;

export const logPartRefSchema = z.object({ table: zLogTable, part: zLogPart });
export type LogPartRef = z.infer<typeof logPartRefSchema>;

const partsQuery = pageQuery.extend({ table: z.enum(LOG_TABLES).optional() });
export type LogPartsQuery = z.output<typeof partsQuery>;

const route = routeFamily({
  tags: ['settings'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
});

export const getLogSetting = route.get('client.setting.log.get', '/client/setting/log', {
  summary: 'How many days the analytics store keeps raw request events and their rollups',
  response: dataOf(logRetentionSchema),
});

export const putLogSetting = route.post('client.setting.log.update', '/client/setting/log', {
  summary:
    'Sets the days raw events (1–365) and rollups (62–1100, not fewer than the raw days) are kept; ' +
    'the analytics job deletes what is older at its next run',
  body: logRetentionSchema,
  response: dataOf(logRetentionSchema),
});

export const listLogParts = route.get('client.setting.log.parts', '/client/setting/log/parts', {
  summary:
    "The analytics store's parts (a table's rows of one UTC day), newest day first, paged, optionally of one table",
  query: partsQuery,
  response: pageOf(logPartSchema),
});

export const deleteLogPart = route.delete('client.setting.log.part.delete', '/client/setting/log/part', {
  summary: 'Deletes one part: the rows of one table and UTC day (101018 when the store holds no such part)',
  body: logPartRefSchema,
  response: okReply,
});

export const deleteLogParts = route.delete('client.setting.log.parts.delete', '/client/setting/log/parts', {
  summary: 'Deletes parts (101018 and nothing deleted when one of them is not stored)',
  body: z.object({
    // Each part once after parsing, as zIds does with ids: a part named twice is deleted once.
    items: z
      .array(logPartRefSchema)
      .min(1)
      .max(LOG_PARTS_DELETE_MAX)
      .overwrite((items) => [...new Map(items.map((i) => [`${i.table}/${i.part}`, i])).values()]),
  }),
  response: okReply,
});

/**
 * Log export files (routes/log-exports.ts) are kept for `retentionDays` after they are written, and
 * all of them together take at most `spaceMB` (MiB): past it the oldest finished files expire
 * first. Until the operator sets them, the install's defaults hold (`RAMPART_LOG_EXPORT_RETENTION_DAYS`,
 * 7; `RAMPART_LOG_EXPORT_MAX_BYTES`, 10 GiB).
 */
export const LOG_EXPORT_RETENTION_DAYS_MIN = 1;
export const LOG_EXPORT_RETENTION_DAYS_MAX = 365;
export const LOG_EXPORT_SPACE_MB_MIN = 1;
/** 10 TiB. */
export const LOG_EXPORT_SPACE_MB_MAX = 10_485_760;

export const logExportSettingSchema = z.object({
  retentionDays: z.number().int().min(LOG_EXPORT_RETENTION_DAYS_MIN).max(LOG_EXPORT_RETENTION_DAYS_MAX),
  spaceMB: z.number().int().min(LOG_EXPORT_SPACE_MB_MIN).max(LOG_EXPORT_SPACE_MB_MAX),
});
export type LogExportSetting = z.infer<typeof logExportSettingSchema>;

export const getLogExportSetting = route.get('client.setting.log.export.get', '/client/setting/log/export', {
  summary: "How long customers' log export files are kept, and the space all of them may take",
  response: dataOf(logExportSettingSchema),
});

export const putLogExportSetting = route.post('client.setting.log.export.update', '/client/setting/log/export', {
  summary:
    'Sets the days export files are kept (1–365, counted from when each was written, finished files ' +
    'included) and the MiB all of them may take (the oldest finished files expire first past it)',
  body: logExportSettingSchema,
  response: dataOf(logExportSettingSchema),
});

export const logSettingRoutes = {
  getLogSetting,
  putLogSetting,
  getLogExportSetting,
  putLogExportSetting,
  listLogParts,
  deleteLogPart,
  deleteLogParts,
} as const;
