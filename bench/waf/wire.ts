// bench:waf's wire: the instrumented origin (raw TCP, records each request's nonce) and the raw
// client (bytes on a socket, the answer read until complete), and a bounded worker pool.
import net from 'node:net';
import { freePort } from '../../apps/edge/test/helpers/net.js';

const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 10_000);
const MAX_RESPONSE_BYTES = 1 << 20;

// ---------------------------------------------------------------------------------------------
// Instrumented origin: raw TCP, tolerant of whatever nginx forwards; 200 to every method and
// path; records the nonce (X-Test-Id) of every request it receives; keep-alive for nginx's pool.

export interface Origin {
  port: number;
  received: Set<string>;
  /** Requests received without a nonce (the `no_rewrite: all` cases, run one at a time). */
  withoutNonce: () => number;
  stop: () => Promise<void>;
}

export const ORIGIN_HEADER = 'x-bench-origin';

export async function startOrigin(): Promise<Origin> {
  const received = new Set<string>();
  let withoutNonce = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buf: Buffer = Buffer.alloc(0);
    const pump = () => {
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) {
          if (buf.length > 1 << 20) socket.destroy();
          return;
        }
        const head = buf.subarray(0, end).toString('latin1').split('\r\n');
        const headers = new Map<string, string>();
        for (const h of head.slice(1)) {
          const i = h.indexOf(':');
          if (i > 0) headers.set(h.slice(0, i).trim().toLowerCase(), h.slice(i + 1).trim());
        }
        const method = (head[0] ?? '').split(' ')[0];
        let rest = buf.subarray(end + 4);
        if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) {
          // Consume chunks until the last one (and its trailer's empty line).
          let at = 0;
          for (;;) {
            const lineEnd = rest.indexOf('\r\n', at);
            if (lineEnd < 0) return;
            const size = Number.parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
            if (!Number.isFinite(size)) {
              socket.destroy();
              return;
            }
            if (size === 0) {
              const trailerEnd = rest.indexOf('\r\n\r\n', lineEnd);
              if (trailerEnd < 0) return;
              at = trailerEnd + 4;
              break;
            }
            if (rest.length < lineEnd + 2 + size + 2) return;
            at = lineEnd + 2 + size + 2;
          }
          rest = rest.subarray(at);
        } else {
          const length = Number(headers.get('content-length') ?? 0) || 0;
          if (rest.length < length) return;
          rest = rest.subarray(length);
        }
        buf = rest;
        const nonce = headers.get('x-test-id');
        if (nonce) received.add(nonce);
        else withoutNonce++;
        const body = `rampart waf bench origin ${nonce ?? '-'}\n`;
        socket.write(
          `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n${ORIGIN_HEADER}: ${nonce ?? '-'}\r\n\r\n${method === 'HEAD' ? '' : body}`,
        );
      }
    };
    socket.on('data', (chunk: Buffer) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      pump();
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port,
    received,
    withoutNonce: () => withoutNonce,
    stop: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Client: raw bytes on a TCP socket, the answer read until the connection closes or its framing
// says it is complete; bounded in time and size.

export interface Answer {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
  /** Why no complete answer came: 'timeout', 'reset', 'no-answer' (closed before a status line). */
  failure?: string;
}

function parseHead(buf: Buffer): { status: number; headers: Map<string, string>; bodyAt: number } | undefined {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(lines[0] ?? '');
  const headers = new Map<string, string>();
  for (const h of lines.slice(1)) {
    const i = h.indexOf(':');
    if (i > 0) headers.set(h.slice(0, i).trim().toLowerCase(), h.slice(i + 1).trim());
  }
  return { status: status ? Number(status[1]) : 0, headers, bodyAt: end + 4 };
}

export function send(port: number, bytes: Buffer, method: string): Promise<Answer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const socket = net.connect({ host: '127.0.0.1', port });
    const finish = (failure?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const buf = Buffer.concat(chunks);
      const head = parseHead(buf);
      if (!head) {
        resolve({ status: 0, headers: new Map(), body: Buffer.alloc(0), failure: failure ?? 'no-answer' });
        return;
      }
      resolve({ status: head.status, headers: head.headers, body: buf.subarray(head.bodyAt), failure });
    };
    const timer = setTimeout(() => finish('timeout'), TIMEOUT_MS);
    /** Complete by its framing (cases that keep the connection open: `no_rewrite: connection`). */
    const complete = (buf: Buffer): boolean => {
      const head = parseHead(buf);
      if (!head) return false;
      const bodyLength = buf.length - head.bodyAt;
      if (method === 'HEAD' || head.status === 204 || head.status === 304 || (head.status >= 100 && head.status < 200))
        return true;
      const cl = head.headers.get('content-length');
      if (cl !== undefined) return bodyLength >= Number(cl);
      if (/chunked/i.test(head.headers.get('transfer-encoding') ?? ''))
        return (
          buf.subarray(head.bodyAt).includes('\r\n0\r\n\r\n') ||
          buf.subarray(head.bodyAt, head.bodyAt + 5).equals(Buffer.from('0\r\n\r\n'))
        );
      return false;
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) finish();
      else if (complete(Buffer.concat(chunks))) finish();
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // A reset after a complete answer (nginx closing on a body it did not read) loses nothing.
      const buf = Buffer.concat(chunks);
      finish(parseHead(buf) && complete(buf) ? undefined : err.code === 'ECONNRESET' ? 'reset' : (err.code ?? 'error'));
    });
    // write, not end: nginx takes a half-closed connection for a client gone away (499).
    socket.on('connect', () => socket.write(bytes));
  });
}

export async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}
