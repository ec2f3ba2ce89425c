import http from 'node:http';
import https from 'node:https';
import { pinnedLookup, type TargetGuard } from './target-guard.js';

/** An HTTP answer as the callers read it: the status, headers and the body's first `maxBytes`. */
export interface GuardedAnswer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
}

export interface GuardedRequestInit {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
  /** Connect to last byte (ms). */
  readonly timeoutMs: number;
  /** How much of the answer is kept (default 1 MiB; the rest is read and dropped). */
  readonly maxBytes?: number;
}

/** The request did not get an answer (timeout, reset, TLS failure); the message names no address. */
export class GuardedRequestError extends Error {
  override readonly name = 'GuardedRequestError';
}

/**
 * One HTTP(S) request through the target guard: the host resolved and checked once, the socket
 * pinned to the checked addresses, no proxy from the environment, redirects never followed (a 3xx
 * is answered as it is; callers treat it as a failure). Throws TargetRefusedError before any
 * connection when the destination is refused.
 */
export async function guardedRequest(
  guard: TargetGuard,
  url: string,
  init: GuardedRequestInit,
): Promise<GuardedAnswer> {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new GuardedRequestError('not an http(s) URL');
  const addresses = await guard.addresses(u.hostname);
  const client = u.protocol === 'https:' ? https : http;
  const body = init.body === undefined ? undefined : Buffer.from(init.body);
  const maxBytes = init.maxBytes ?? 1_048_576;
  return new Promise<GuardedAnswer>((resolve, reject) => {
    let settled = false;
    const done = (error: Error | null, answer?: GuardedAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(whole);
      if (error) reject(error);
      else resolve(answer as GuardedAnswer);
    };
    const req = client.request(
      {
        protocol: u.protocol,
        host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: u.port === '' ? undefined : Number(u.port),
        path: `${u.pathname}${u.search}`,
        method: init.method ?? 'GET',
        headers: { ...init.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        lookup: pinnedLookup(addresses),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < maxBytes) chunks.push(c.subarray(0, maxBytes - size));
          size += c.length;
        });
        res.on('end', () =>
          done(null, {
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', () => done(new GuardedRequestError('the answer was cut off')));
      },
    );
    const whole = setTimeout(
      () => req.destroy(new GuardedRequestError(`no answer within ${init.timeoutMs} ms`)),
      init.timeoutMs,
    );
    req.on('error', (error) =>
      done(error instanceof GuardedRequestError ? error : new GuardedRequestError('no answer from the destination')),
    );
    req.end(body);
  });
}
