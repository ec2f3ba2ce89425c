import http from 'node:http';
import https from 'node:https';
import { createServer } from 'node:net';
import type { TLSSocket } from 'node:tls';

// Ports for the servers a test starts (origins, nginx, control planes) come from below Linux's
// ephemeral range (32768 and up) and from a block of their own per vitest worker. A port the kernel
// hands out for bind(0) lies in the ephemeral range, so any outgoing connection of the busy test
// run could take it as its source port before the server binds it, and two workers asking at once
// can be given the same one: nginx then fails to start on a port that was "free".
const FIRST_PORT = 20_000;
const BLOCK = 1_000;
const BLOCKS = 12; // 20000–31999
const block = Number(process.env.VITEST_POOL_ID ?? 0) % BLOCKS;
let cursor = Math.floor(Math.random() * BLOCK);

function canListen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A port that was free on `host` a moment ago, from this worker's block (see above). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (let tries = 0; tries < BLOCK; tries++) {
    const port = FIRST_PORT + block * BLOCK + (cursor++ % BLOCK);
    if (await canListen(port, host)) return port;
  }
  throw new Error(`no free port in ${FIRST_PORT + block * BLOCK}–${FIRST_PORT + block * BLOCK + BLOCK - 1}`);
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

/** One HTTP request on a new connection to 127.0.0.1 (no keep-alive, so no pooled state). */
export function request(
  port: number,
  host: string,
  path = '/',
  options: { method?: string; body?: string; timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { ...options.headers, host },
        agent: false,
        timeout: options.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`request to ${host}${path} timed out`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * One HTTPS request on a new connection to 127.0.0.1 with SNI and Host `host` (the certificate is
 * not verified); answers the status, the body and the SHA-256 fingerprint of the certificate served.
 */
export function httpsRequest(
  port: number,
  host: string,
  urlPath = '/',
  options: { method?: string; body?: string } = {},
): Promise<{ status: number; body: string; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method: options.method ?? 'GET',
        servername: host,
        headers: { host },
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        const { fingerprint256 } = (res.socket as TLSSocket).getPeerCertificate();
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, fingerprint: fingerprint256 }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
