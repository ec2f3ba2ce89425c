import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type EdgeEventBatch, edgeEventBatchSchema } from '@rampart/contract';

/** An access-log line as nginx writes it (render.ts accessLogFormat) for request `id`. */
export function logLine(id: string, fields: Record<string, string> = {}): string {
  return `${JSON.stringify({
    time: '2025-03-01T10:00:00+00:00',
    msec: '1740823200.123',
    request_id: id,
    remote_addr: '127.0.0.1',
    scheme: 'http',
    server_port: '80',
    host: 'www.example.com',
    method: 'GET',
    uri: `/${id}`,
    protocol: 'HTTP/1.1',
    status: '200',
    request_length: '80',
    bytes_sent: '400',
    request_time: '0.001',
    upstream_addr: '127.0.0.1:9000',
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
