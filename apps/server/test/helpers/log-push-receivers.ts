import { createHmac, timingSafeEqual } from 'node:crypto';
import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';
import { gunzipSync } from 'node:zlib';

/**
 * Real receivers on loopback for the log push tests: a webhook (checks the HMAC signature header
 * and gunzips the JSON lines), syslog over TCP (octet-counted RFC 5424 frames, RFC 6587) and UDP
 * (one RFC 5424 message per datagram), and stand-ins for the ingest endpoints of Elasticsearch
 * (`POST /_bulk`, NDJSON action and document lines) and Splunk HEC (`POST /services/collector/event`,
 * `Authorization: Splunk <token>`, concatenated event objects). The stand-ins check the format the
 * way those products' endpoints read it; they are not those products. Each keeps what it received
 * and every format error it saw, and can be stopped and started again on the same port.
 */

export interface Received {
  /** Records (JSON objects) in the order they arrived. */
  records: Record<string, unknown>[];
  /** What the receiver found wrong (a test expects none). */
  errors: string[];
  /** Requests or connections taken. */
  deliveries: number;
}

export interface Receiver extends Received {
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** The answer status while not 2xx (HTTP receivers): simulates a receiver that refuses. */
  failWith: number | null;
}

function received(): Received {
  return { records: [], errors: [], deliveries: 0 };
}

const readBody = (req: http.IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

async function httpReceiver(
  handle: (r: Receiver, req: http.IncomingMessage, body: Buffer) => { status: number; body: unknown },
): Promise<Receiver> {
  let server: http.Server | null = null;
  const r: Receiver = {
    ...received(),
    port: 0,
    failWith: null,
    async start() {
      const s = http.createServer(async (req, res) => {
        const body = await readBody(req);
        if (r.failWith !== null) {
          res.writeHead(r.failWith).end('refused for the test');
          return;
        }
        r.deliveries += 1;
        let answer: { status: number; body: unknown };
        try {
          answer = handle(r, req, body);
        } catch (e) {
          r.errors.push(String(e));
          answer = { status: 400, body: { error: String(e) } };
        }
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      });
      await new Promise<void>((resolve) => s.listen(r.port, '127.0.0.1', () => resolve()));
      r.port = (s.address() as net.AddressInfo).port;
      server = s;
    },
    async stop() {
      const s = server;
      server = null;
      if (!s) return;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
  await r.start();
  return r;
}

/** A webhook: `X-Rampart-Signature: t=<s>,v1=<hex>` over `<t>.` + the gzip body, JSON lines inside. */
export function webhookReceiver(secret: string, extraHeader?: { name: string; value: string }) {
  return httpReceiver((r, req, body) => {
    const sig = String(req.headers['x-rampart-signature'] ?? '');
    const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sig);
    if (!m) throw new Error(`no signature: ${sig}`);
    const mac = createHmac('sha256', secret).update(`${m[1]}.`).update(body).digest();
    if (!timingSafeEqual(mac, Buffer.from(m[2] ?? '', 'hex'))) throw new Error('bad signature');
    if (req.headers['content-encoding'] !== 'gzip') throw new Error('not gzip');
    if (extraHeader && req.headers[extraHeader.name.toLowerCase()] !== extraHeader.value) {
      throw new Error('extra header missing');
    }
    const text = gunzipSync(body).toString('utf8');
    if (!text.endsWith('\n')) throw new Error('JSON lines end with a newline');
    for (const line of text.slice(0, -1).split('\n')) r.records.push(JSON.parse(line));
    return { status: 200, body: { ok: true } };
  });
}

/** Stand-in for Elasticsearch's `_bulk` endpoint: action line `{"index":{"_index":…}}` then the document. */
export function bulkReceiver(index: string, apiKey: string) {
  return httpReceiver((r, req, body) => {
    if (req.url !== '/_bulk') throw new Error(`path ${req.url}`);
    if (req.headers.authorization !== `ApiKey ${apiKey}`) throw new Error('auth');
    if (!String(req.headers['content-type']).startsWith('application/x-ndjson')) throw new Error('content type');
    const text = body.toString('utf8');
    if (!text.endsWith('\n')) throw new Error('_bulk bodies end with a newline');
    const lines = text.slice(0, -1).split('\n');
    if (lines.length % 2 !== 0) throw new Error('action and document lines pair up');
    const items: unknown[] = [];
    for (let i = 0; i < lines.length; i += 2) {
      const action = JSON.parse(lines[i] ?? '') as { index?: { _index?: string; _id?: string } };
      if (action.index?._index !== index) throw new Error(`index ${JSON.stringify(action)}`);
      const doc = JSON.parse(lines[i + 1] ?? '') as Record<string, unknown>;
      if (typeof doc['@timestamp'] !== 'string') throw new Error('no @timestamp');
      r.records.push(doc);
      items.push({ index: { _index: index, _id: action.index._id ?? String(i), status: 201 } });
    }
    return { status: 200, body: { took: 1, errors: false, items } };
  });
}

/** Stand-in for Splunk HEC's event endpoint: `Authorization: Splunk <token>`, event objects one after another. */
export function hecReceiver(token: string) {
  return httpReceiver((r, req, body) => {
    if (req.url !== '/services/collector/event') throw new Error(`path ${req.url}`);
    if (req.headers.authorization !== `Splunk ${token}`)
      return { status: 401, body: { text: 'Invalid token', code: 4 } };
    for (const line of body.toString('utf8').split('\n')) {
      const obj = JSON.parse(line) as { time?: number; event?: Record<string, unknown> };
      if (typeof obj.time !== 'number' || typeof obj.event !== 'object') throw new Error('HEC event shape');
      r.records.push(obj.event as Record<string, unknown>);
    }
    return { status: 200, body: { text: 'Success', code: 0 } };
  });
}

const RFC5424 = /^<(\d{1,3})>1 (\S+) (\S+) (\S+) (\S+) (\S+) (-|\[.*?\]) \uFEFF(.*)$/su;

function parseSyslog(r: Received, message: string): void {
  const m = RFC5424.exec(message);
  if (!m) {
    r.errors.push(`not RFC 5424: ${message.slice(0, 80)}`);
    return;
  }
  if (Number.isNaN(Date.parse(m[2] ?? ''))) r.errors.push(`timestamp ${m[2]}`);
  r.records.push(JSON.parse(m[8] ?? '') as Record<string, unknown>);
}

/** Syslog over TCP: octet-counted frames (`LEN SP MSG`), RFC 6587 §3.4.1. */
export async function syslogTcpReceiver(): Promise<Receiver> {
  let server: net.Server | null = null;
  const r: Receiver = {
    ...received(),
    port: 0,
    failWith: null,
    async start() {
      const s = net.createServer((socket) => {
        r.deliveries += 1;
        let buf = Buffer.alloc(0);
        socket.on('data', (chunk: Buffer) => {
          buf = Buffer.concat([buf, chunk]);
          for (;;) {
            const sp = buf.indexOf(0x20);
            if (sp < 0) return;
            const len = Number(buf.subarray(0, sp).toString('ascii'));
            if (!Number.isSafeInteger(len) || len <= 0) {
              r.errors.push('bad frame length');
              socket.destroy();
              return;
            }
            if (buf.length < sp + 1 + len) return;
            parseSyslog(r, buf.subarray(sp + 1, sp + 1 + len).toString('utf8'));
            buf = buf.subarray(sp + 1 + len);
          }
        });
        socket.on('end', () => {
          if (buf.length > 0) r.errors.push('trailing bytes');
          socket.end();
        });
      });
      await new Promise<void>((resolve) => s.listen(r.port, '127.0.0.1', () => resolve()));
      r.port = (s.address() as net.AddressInfo).port;
      server = s;
    },
    async stop() {
      const s = server;
      server = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
  await r.start();
  return r;
}

/** Syslog over UDP: one RFC 5424 message per datagram. */
export async function syslogUdpReceiver(): Promise<Receiver> {
  let socket: dgram.Socket | null = null;
  const r: Receiver = {
    ...received(),
    port: 0,
    failWith: null,
    async start() {
      const s = dgram.createSocket('udp4');
      s.on('message', (msg) => {
        r.deliveries += 1;
        parseSyslog(r, msg.toString('utf8'));
      });
      await new Promise<void>((resolve) => s.bind(r.port, '127.0.0.1', () => resolve()));
      r.port = s.address().port;
      socket = s;
    },
    async stop() {
      const s = socket;
      socket = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
  await r.start();
  return r;
}
