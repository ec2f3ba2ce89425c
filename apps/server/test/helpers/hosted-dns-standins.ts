import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * STAND-INS, not the real services: small local HTTP servers that answer the parts of
 * Cloudflare's API v4 and DNSPod's dnsapi.cn API the providers use, in the shapes their published
 * documentation gives (envelopes, error bodies, field names), keeping records in memory. The
 * providers cannot reach the real services from the tests (loopback only).
 */
export interface StandinRecord {
  id: string;
  name: string;
  type: string;
  line: string;
  ttl: number;
  value: string;
}

export interface HostedStandin {
  readonly url: string;
  /** Every record held, to check what the provider wrote. */
  readonly records: StandinRecord[];
  /** Calls received (method and path or action), in order. */
  readonly calls: string[];
  stop(): Promise<void>;
}

async function serve(
  handler: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void,
): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => handler(req, body, res));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const stopper = (server: http.Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** Stand-in of Cloudflare API v4 (`/zones`, `/zones/:id/dns_records[/:id]`) for one zone and one token. */
export async function startCloudflareStandin(zone: string, token: string): Promise<HostedStandin> {
  const records: StandinRecord[] = [];
  const calls: string[] = [];
  const zoneId = 'f1e2d3c4b5a6978800112233445566aa';
  let next = 1;
  const { server, url } = await serve((req, body, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    calls.push(`${req.method} ${u.pathname}`);
    if (req.headers.authorization !== `Bearer ${token}`) {
      json(res, 403, {
        success: false,
        errors: [{ code: 9109, message: 'Invalid access token' }],
        messages: [],
        result: null,
      });
      return;
    }
    const ok = (result: unknown, extra: object = {}) =>
      json(res, 200, { success: true, errors: [], messages: [], result, ...extra });
    if (req.method === 'GET' && u.pathname === '/zones') {
      ok(u.searchParams.get('name') === zone ? [{ id: zoneId, name: zone, status: 'active' }] : []);
      return;
    }
    const m = /^\/zones\/([^/]+)\/dns_records(?:\/([^/]+))?$/.exec(u.pathname);
    if (!m || m[1] !== zoneId) {
      json(res, 404, {
        success: false,
        errors: [{ code: 7003, message: 'Could not route to /zones, perhaps your object identifier is invalid?' }],
        messages: [],
        result: null,
      });
      return;
    }
    const show = (r: StandinRecord) => ({
      id: r.id,
      type: r.type,
      name: r.name,
      content: r.value,
      ttl: r.ttl,
      proxied: false,
    });
    if (req.method === 'GET' && !m[2]) {
      const name = u.searchParams.get('name');
      const perPage = Number(u.searchParams.get('per_page') ?? '100');
      const page = Number(u.searchParams.get('page') ?? '1');
      const all = records.filter((r) => name === null || r.name === name);
      const slice = all.slice((page - 1) * perPage, page * perPage);
      ok(slice.map(show), {
        result_info: {
          page,
          per_page: perPage,
          count: slice.length,
          total_count: all.length,
          total_pages: Math.max(1, Math.ceil(all.length / perPage)),
        },
      });
      return;
    }
    if (req.method === 'POST' && !m[2]) {
      const b = JSON.parse(body) as { type: string; name: string; content: string; ttl: number };
      if (b.ttl !== 1 && (b.ttl < 60 || b.ttl > 86400)) {
        json(res, 400, {
          success: false,
          errors: [{ code: 9021, message: 'Invalid TTL. Must be between 60 and 86400 seconds, or 1 for Automatic.' }],
          messages: [],
          result: null,
        });
        return;
      }
      if (b.type === 'CNAME' && records.some((r) => r.name === b.name)) {
        json(res, 400, {
          success: false,
          errors: [{ code: 81053, message: 'An A, AAAA, or CNAME record with that host already exists.' }],
          messages: [],
          result: null,
        });
        return;
      }
      const record = {
        id: String(next++).padStart(32, '0'),
        name: b.name,
        type: b.type,
        line: 'default',
        ttl: b.ttl,
        value: b.content,
      };
      records.push(record);
      ok(show(record));
      return;
    }
    const index = records.findIndex((r) => r.id === m[2]);
    if (index < 0) {
      json(res, 404, {
        success: false,
        errors: [{ code: 81044, message: 'Record does not exist.' }],
        messages: [],
        result: null,
      });
      return;
    }
    const record = records[index] as StandinRecord;
    if (req.method === 'PATCH') {
      const b = JSON.parse(body) as { ttl?: number };
      if (b.ttl !== undefined) record.ttl = b.ttl;
      ok(show(record));
    } else if (req.method === 'DELETE') {
      records.splice(index, 1);
      ok({ id: record.id });
    } else {
      json(res, 405, {
        success: false,
        errors: [{ code: 10000, message: 'method not allowed' }],
        messages: [],
        result: null,
      });
    }
  });
  return { url, records, calls, stop: stopper(server) };
}

/** Stand-in of DNSPod's dnsapi.cn (Domain.Info, Record.List/Create/Modify/Remove) for one domain and token. */
export async function startDnspodStandin(zone: string, token: string): Promise<HostedStandin> {
  const records: StandinRecord[] = [];
  const calls: string[] = [];
  let next = 1000;
  const { server, url } = await serve((req, body, res) => {
    const action = (req.url ?? '/').slice(1);
    calls.push(action);
    const p = new URLSearchParams(body);
    const status = (code: string, message: string, extra: object = {}) =>
      json(res, 200, { status: { code, message, created_at: '2026-11-25 00:00:00' }, ...extra });
    if (req.method !== 'POST' || !req.headers['user-agent']) {
      status('-1', 'User-Agent required');
      return;
    }
    if (p.get('login_token') !== token) {
      status('-1', 'Login failed.');
      return;
    }
    if (p.get('domain') !== zone) {
      status('6', 'Domain id invalid');
      return;
    }
    const fqdn = (sub: string) => (sub === '@' ? zone : `${sub}.${zone}`);
    switch (action) {
      case 'Domain.Info':
        status('1', 'Action completed successful', { domain: { id: '42', name: zone, status: 'enable' } });
        return;
      case 'Record.List': {
        const sub = p.get('sub_domain');
        const found = records.filter((r) => sub === null || r.name === fqdn(sub));
        status('1', 'Action completed successful', {
          records: found.map((r) => ({
            id: r.id,
            name: sub ?? r.name,
            line: r.line,
            line_id: '0',
            type: r.type,
            ttl: String(r.ttl),
            value: r.type === 'CNAME' ? `${r.value}.` : r.value,
            enabled: '1',
          })),
        });
        return;
      }
      case 'Record.Create':
      case 'Record.Modify': {
        const ttl = Number(p.get('ttl') ?? '600');
        if (ttl < 1 || ttl > 604800) {
          status('82', 'TTL invalid');
          return;
        }
        const fields = {
          name: fqdn(p.get('sub_domain') ?? '@'),
          type: p.get('record_type') ?? '',
          line: p.get('record_line') ?? '',
          ttl,
          value: p.get('value') ?? '',
        };
        if (
          !['默认', '电信', '联通', '移动', '教育网', '铁通', '广电网', '鹏博士', '境内', '境外', '搜索引擎'].includes(
            fields.line,
          )
        ) {
          status('21', 'Record line invalid');
          return;
        }
        if (action === 'Record.Create') {
          const record = { id: String(next++), ...fields };
          records.push(record);
          status('1', 'Action completed successful', {
            record: { id: record.id, name: fields.name, status: 'enabled' },
          });
          return;
        }
        const record = records.find((r) => r.id === p.get('record_id'));
        if (!record) {
          status('8', 'Record id invalid');
          return;
        }
        Object.assign(record, fields);
        status('1', 'Action completed successful', { record: { id: record.id } });
        return;
      }
      case 'Record.Remove': {
        const index = records.findIndex((r) => r.id === p.get('record_id'));
        if (index < 0) {
          status('8', 'Record id invalid');
          return;
        }
        records.splice(index, 1);
        status('1', 'Action completed successful');
        return;
      }
      default:
        status('-1', `unknown action ${action}`);
    }
  });
  return { url, records, calls, stop: stopper(server) };
}
