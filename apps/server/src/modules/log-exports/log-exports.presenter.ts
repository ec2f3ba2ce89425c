import { type LogExport, type LogRecord, logRecordSchema } from '@rampart/contract';
import { csvCell } from '../domains/domains-csv.presenter.js';
import type { LogExportRow } from './log-exports.repository.js';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** An export as the API shows it: progress from the counts, 100 once done. */
export function presentLogExport(row: LogExportRow): LogExport {
  const progress =
    row.status === 'done' || row.status === 'expired'
      ? 100
      : row.total > 0
        ? Math.min(99, Math.floor((row.records * 100) / row.total))
        : 0;
  return {
    id: row.id,
    type: row.type,
    format: row.format,
    gzip: row.gzip,
    status: row.status,
    progress,
    records: row.records,
    bytes: row.bytes,
    fileName: row.fileName,
    error: row.error,
    startTime: row.filter.startTime,
    endTime: row.filter.endTime,
    filter: row.filter,
    createdAt: row.createdAt.toISOString(),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    expiresAt: iso(row.expiresAt),
  };
}

/** The download's name: the log, its time range (UTC, to the second) and the format. */
export function exportFileName(type: string, startTime: string, endTime: string, format: string, gzip: boolean) {
  const stamp = (t: string) => new Date(t).toISOString().replace(/[-:]/g, '').replace(/\..*/, 'Z');
  return `${type}-log-${stamp(startTime)}-${stamp(endTime)}.${format}${gzip ? '.gz' : ''}`;
}

/** The columns of a CSV export: every field of a log record of one request, in the record's order. */
export const LOG_CSV_COLUMNS = Object.keys(logRecordSchema.shape).filter(
  (k): k is Exclude<keyof LogRecord, 'collapsed'> => k !== 'collapsed',
);
/**
 * After them, what a collapsed flood's line adds (its count of requests, its first and last
 * times); a request's own line has 1 and its time twice.
 */
export const LOG_CSV_COLLAPSED_COLUMNS = ['requests', 'firstTime', 'lastTime'] as const;

/** The header row of a CSV export (CRLF lines, RFC 4180). */
export const csvHeader = () => `${[...LOG_CSV_COLUMNS, ...LOG_CSV_COLLAPSED_COLUMNS].join(',')}\r\n`;

/** One record as a CSV line: cells quoted as RFC 4180 asks and neutralised against spreadsheet formulas. */
export const csvLine = (record: LogRecord) => {
  const { count, first, last } = record.collapsed ?? { count: 1, first: record.time, last: record.time };
  return `${[...LOG_CSV_COLUMNS.map((c) => record[c]), count, first, last].map(csvCell).join(',')}\r\n`;
};

/** One record as a JSON line (the log search's record shape). */
export const jsonLine = (record: LogRecord) => `${JSON.stringify(record)}\n`;

/** The download's content type. */
export function exportContentType(format: 'csv' | 'jsonl', gzip: boolean): string {
  if (gzip) return 'application/gzip';
  return format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8';
}
