import { createHmac } from 'node:crypto';
import dgram from 'node:dgram';
import http from 'node:http';
import https from 'node:https';
import net, { isIP } from 'node:net';
import tls from 'node:tls';
import { gzipSync } from 'node:zlib';
import { LOG_PUSH_SIGNATURE_HEADER, type LogPushDestinationIn } from '@rampart/contract';
import type { OutgoingCheck } from '../../platform/http/outgoing.js';
import { pinnedLookup, type TargetGuard } from '../../platform/http/target-guard.js';

/**
 * Sending one batch of a log push event to its destination (docs/decisions.md "Log push"). Every
 * destination host goes through the target guard (platform/http/target-guard.ts: resolved once,
 * each address checked, the connection made to a checked address, so no DNS rebinding gap),
 * redirects are not followed, and both the connection and the whole exchange have
 * a time limit. A batch is delivered when the receiver acknowledged it: a 2xx answer (with no
 * item errors for `_bulk`), or a TCP/TLS stream closed cleanly after the last frame, or a UDP send.
 */

/** A destination with its secrets (the stored one merged with the sealed secrets). */
export type PushDestination = LogPushDestinationIn;

export interface SendOptions {
  /** The address rule (platform/http/target-guard.ts): the host's addresses checked, the socket pinned to them. */
  targets: TargetGuard;
  /** The operator's outgoing URL list: a destination outside it is refused before any connection. */
  check: OutgoingCheck;
  /** Time to connect, and for the whole exchange (ms). */
  connectTimeoutMs: number;
  requestTimeoutMs: number;
}

/** A batch as sent: the records (JSON objects) with what names them. */
export interface PushBatch {
  /** 'access' | 'waf' | 'audit' */
  type: string;
  records: readonly Record<string, unknown>[];
  /** Ids ES may use to make a resend idempotent (the request id), one per record, or null. */
  ids: readonly (string | null)[];
  /** Each record's time in unix milliseconds. */
  times: readonly number[];
  hosts: readonly string[];
}

export class PushError extends Error {}

/** The body of a batch as JSON lines (what the webhook sends, gzip) and its size. */
export function jsonLines(batch: PushBatch): string {
  return batch.records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** The webhook's signature header value: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>." + body)>`. */
export function webhookSignature(secret: string, t: number, body: Buffer): string {
  const mac = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
  return `t=${t},v1=${mac}`;
}

/** RFC 5424 PRI of every message: facility local0 (16), severity informational (6). */
const SYSLOG_PRI = 16 * 8 + 6;
const printable = (s: string, max: number) => {
  const clean = s.replace(/[^\x21-\x7e]/g, '').slice(0, max);
  return clean === '' ? '-' : clean;
};

/** One RFC 5424 message: `<134>1 TIMESTAMP HOSTNAME APP-NAME - MSGID - MSG` (MSG the record's JSON, UTF-8 with BOM). */
export function syslogMessage(appName: string, type: string, time: number, host: string, record: unknown): Buffer {
  const header = `<${SYSLOG_PRI}>1 ${new Date(time).toISOString()} ${printable(host, 255)} ${printable(appName, 48)} - ${type} - `;
  return Buffer.concat([
    Buffer.from(header, 'ascii'),
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from(JSON.stringify(record), 'utf8'),
  ]);
}

interface HttpAnswer {
  status: number;
  body: string;
}

/** One POST to a checked address of the URL's host; no redirects; the answer's first 64 KiB. */
async function post(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  options: SendOptions,
): Promise<HttpAnswer> {
  const u = new URL(url);
  const addresses = await options.targets.addresses(u.hostname);
  const client = u.protocol === 'https:' ? https : http;
  return new Promise<HttpAnswer>((resolve, reject) => {
    let settled = false;
    const done = (err: Error | null, answer?: HttpAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(whole);
      if (err) reject(err);
      else resolve(answer as HttpAnswer);
    };
    const req = client.request(
      {
        protocol: u.protocol,
        host: u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname,
        port: u.port === '' ? undefined : Number(u.port),
        path: `${u.pathname}${u.search}`,
        method: 'POST',
        headers: { ...headers, 'content-length': String(body.length), 'user-agent': 'rampart-log-push' },
        // The checked addresses, whatever a second lookup would answer (no rebinding gap).
        lookup: pinnedLookup(addresses),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < 65_536) chunks.push(c);
          size += c.length;
        });
        res.on('end', () => done(null, { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (e) => done(e));
      },
    );
    const connect = setTimeout(() => req.destroy(new PushError('connect timeout')), options.connectTimeoutMs);
    req.on('socket', (socket) => {
      socket.once(u.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connect));
    });
    const whole = setTimeout(() => req.destroy(new PushError('request timeout')), options.requestTimeoutMs);
    req.on('error', (e) => {
      clearTimeout(connect);
      done(e);
    });
    req.on('close', () => clearTimeout(connect));
    req.end(body);
  });
}

function expect2xx(answer: HttpAnswer, what: string): void {
  if (answer.status >= 300 && answer.status < 400)
    throw new PushError(`${what}: redirect ${answer.status} not followed`);
  if (answer.status < 200 || answer.status >= 300) {
    throw new PushError(`${what}: HTTP ${answer.status} ${answer.body.slice(0, 200)}`.trim());
  }
}

/** Frames over a stream (TCP or TLS), octet-counting (RFC 6587 §3.4.1); delivered once the stream closed cleanly. */
async function streamFrames(
  host: string,
  port: number,
  secure: boolean,
  frames: readonly Buffer[],
  options: SendOptions,
): Promise<void> {
  const [target] = await options.targets.addresses(host);
  if (!target) throw new PushError('no address');
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const socket = secure
      ? tls.connect({ host: target.address, port, servername: isIP(host) ? undefined : host })
      : net.connect({ host: target.address, port });
    const finish = (err: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(connect);
      clearTimeout(whole);
      if (err) {
        socket.destroy();
        reject(err);
      } else resolve();
    };
    const connect = setTimeout(() => finish(new PushError('connect timeout')), options.connectTimeoutMs);
    const whole = setTimeout(() => finish(new PushError('send timeout')), options.requestTimeoutMs);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(connect);
      const body = Buffer.concat(frames.flatMap((f) => [Buffer.from(`${f.length} `, 'ascii'), f]));
      socket.end(body);
    });
    socket.on('data', () => {});
    socket.once('error', (e) => finish(e));
    socket.once('close', (hadError) => finish(hadError ? new PushError('connection closed with an error') : null));
  });
}

/** One datagram per message (RFC 5426). */
async function udpFrames(host: string, port: number, frames: readonly Buffer[], options: SendOptions): Promise<void> {
  const [target] = await options.targets.addresses(host);
  if (!target) throw new PushError('no address');
  const socket = dgram.createSocket(target.family === 6 ? 'udp6' : 'udp4');
  try {
    for (const f of frames) {
      await new Promise<void>((resolve, reject) =>
        socket.send(f.subarray(0, 65_000), port, target.address, (e) => (e ? reject(e) : resolve())),
      );
    }
  } finally {
    socket.close();
  }
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const joinPath = (base: string, suffix: string) => `${base.replace(/\/+$/, '')}${suffix}`;

/** Where a destination's batches go, named as the outgoing URL list is checked (syslog as `tcp://`, `tls://`, `udp://`). */
export function destinationOf(dest: PushDestination): string {
  return dest.kind === 'syslog' ? `${dest.transport}://${dest.host}:${dest.port}` : dest.url;
}

/** Sends a batch; answers the bytes sent (the encoded body before gzip) or throws why not. */
export async function sendBatch(
  dest: PushDestination,
  batch: PushBatch,
  options: SendOptions,
  now: number,
): Promise<number> {
  await options.check(destinationOf(dest));
  switch (dest.kind) {
    case 'webhook': {
      const text = jsonLines(batch);
      const body = gzipSync(Buffer.from(text, 'utf8'));
      const headers: Record<string, string> = {
        'content-type': 'application/x-ndjson',
        'content-encoding': 'gzip',
        'x-rampart-log-type': batch.type,
      };
      if (dest.secret)
        headers[LOG_PUSH_SIGNATURE_HEADER.toLowerCase()] = webhookSignature(dest.secret, Math.floor(now / 1000), body);
      if (dest.headerName && dest.headerValue !== undefined) headers[dest.headerName.toLowerCase()] = dest.headerValue;
      expect2xx(await post(dest.url, headers, body, options), 'webhook');
      return Buffer.byteLength(text);
    }
    case 'syslog': {
      const frames = batch.records.map((r, i) =>
        syslogMessage(dest.appName, batch.type, batch.times[i] ?? now, batch.hosts[i] ?? '', r),
      );
      if (dest.transport === 'udp') await udpFrames(dest.host, dest.port, frames, options);
      else await streamFrames(dest.host, dest.port, dest.transport === 'tls', frames, options);
      return frames.reduce((n, f) => n + f.length, 0);
    }
    case 'elasticsearch': {
      const lines: string[] = [];
      batch.records.forEach((r, i) => {
        const id = batch.ids[i];
        // The request id as the document id: a batch sent again overwrites instead of duplicating.
        lines.push(JSON.stringify({ index: id ? { _index: dest.index, _id: id } : { _index: dest.index } }));
        lines.push(JSON.stringify({ '@timestamp': new Date(batch.times[i] ?? now).toISOString(), ...r }));
      });
      const text = `${lines.join('\n')}\n`;
      const headers: Record<string, string> = { 'content-type': 'application/x-ndjson' };
      if (dest.apiKey) headers.authorization = `ApiKey ${dest.apiKey}`;
      else if (dest.username) headers.authorization = basic(dest.username, dest.password ?? '');
      const answer = await post(joinPath(dest.url, '/_bulk'), headers, Buffer.from(text, 'utf8'), options);
      expect2xx(answer, 'elasticsearch');
      let parsed: { errors?: boolean; items?: { index?: { status?: number; error?: { reason?: string } } }[] };
      try {
        parsed = JSON.parse(answer.body) as typeof parsed;
      } catch {
        throw new PushError('elasticsearch: the _bulk answer is not JSON');
      }
      if (parsed.errors) {
        const bad = parsed.items?.find((it) => (it.index?.status ?? 200) >= 300);
        throw new PushError(`elasticsearch: item errors (${bad?.index?.error?.reason ?? 'unknown'})`);
      }
      return Buffer.byteLength(text);
    }
    case 'splunk': {
      const text = batch.records
        .map((r, i) =>
          JSON.stringify({
            time: (batch.times[i] ?? now) / 1000,
            host: batch.hosts[i] || undefined,
            source: 'rampart',
            sourcetype: dest.sourcetype ?? `rampart:${batch.type}`,
            index: dest.index,
            event: r,
          }),
        )
        .join('\n');
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        authorization: `Splunk ${dest.token ?? ''}`,
      };
      expect2xx(
        await post(joinPath(dest.url, '/services/collector/event'), headers, Buffer.from(text, 'utf8'), options),
        'splunk',
      );
      return Buffer.byteLength(text);
    }
  }
}
