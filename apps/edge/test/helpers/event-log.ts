import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type EdgeEvent, type EdgeEventBatch, edgeEventBatchSchema } from '@rampart/contract';

/** An access-log line as nginx writes it (render.ts accessLogFormat) for request `id`. */
export function logLine(id: string, fields: Record<string, string> = {}): string {
  return `${JSON.stringify({
    msec: '1740823200.123',
    request_id: id,
    remote_addr: '127.0.0.1',
    scheme: 'http',
    host: 'www.example.com',
    method: 'GET',
    uri: `/${id}`,
    protocol: 'HTTP/1.1',
    status: '200',
    request_length: '80',
    bytes_sent: '400',
    request_time: '0.001',
    upstream_status: '200',
    upstream_response_time: '0.001',
    cache_status: '',
    domain_id: '1',
    fw_kind: '',
    fw_rule: '',
    fw_action: '',
    user_agent: 'test',
    referer: '',
    ...fields,
  })}\n`;
}

/** The access-log line nginx writes for a request that parseEventLine reads as `e` (render.ts accessLogFormat). */
export function eventLine(e: EdgeEvent): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  return `${JSON.stringify({
    msec: seconds(e.time),
    request_id: e.id,
    remote_addr: e.ip,
    scheme: e.scheme,
    host: e.host,
    method: e.method,
    uri: e.path,
    protocol: e.httpVersion === '' ? '' : `HTTP/${e.httpVersion.includes('.') ? e.httpVersion : `${e.httpVersion}.0`}`,
    status: String(e.status),
    request_length: String(e.bytesIn),
    bytes_sent: String(e.bytesOut),
    request_time: seconds(e.requestMs),
    upstream_status: e.upstreamStatus > 0 ? String(e.upstreamStatus) : '',
    upstream_response_time: e.upstreamMs < 0 ? '-' : seconds(e.upstreamMs),
    cache_status: e.cacheStatus,
    domain_id: String(e.domainId),
    fw_kind: e.fwKind,
    fw_rule: e.fwRule > 0 ? String(e.fwRule) : '',
    fw_action: e.fwAction,
    waf_part: e.wafPart,
    waf_excerpt: e.wafExcerpt,
    waf_name: e.wafName,
    user_agent: e.userAgent,
    referer: e.referer,
  })}\n`;
}

/** The batch files of a spool directory, oldest first, decoded and checked with the contract's schema. */
export async function spooledBatches(dir: string): Promise<(EdgeEventBatch & { file: string })[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.gz')).sort();
  const batches: (EdgeEventBatch & { file: string })[] = [];
  for (const name of names) {
    const bytes = await readFile(path.join(dir, name));
    batches.push({ ...edgeEventBatchSchema.parse(JSON.parse(gunzipSync(bytes).toString('utf8'))), file: name });
  }
  return batches;
}
