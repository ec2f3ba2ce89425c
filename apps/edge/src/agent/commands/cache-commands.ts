import http from 'node:http';
import https from 'node:https';
import { CACHE_URL_MESSAGE_MAX, type CacheUrlResult, cacheUrlResultSchema } from '@rampart/contract';
import { z } from 'zod';
import { type AdminEndpoint, adminRequest } from '../../data-plane/admin-client.js';

/**
 * The agent's side of URL purges and preheats (packages/contract/src/edge/cache-urls.ts).
 * A purge goes to the Lua admin endpoint (rampart.purge finds each URL's cache keys with the
 * configuration nginx serves right now); a preheat requests each URL from the node's own nginx, on
 * the loopback side of its listen ports, so that the site's cache rules store the answer.
 */

/** Longest one preheat request may take (the whole body is read so that nginx stores it). */
const PREHEAT_TIMEOUT_MS = 60_000;
/** URLs fetched at once by a preheat. */
const PREHEAT_CONCURRENCY = 4;
const CACHE_STATUS_RE = /^[A-Z]{1,16}$/;

const purgeAnswer = z.object({ results: z.array(cacheUrlResultSchema) });

export async function purgeUrls(
  endpoint: AdminEndpoint,
  urls: string[],
  timeoutMs = 30_000,
): Promise<CacheUrlResult[]> {
  const { status, text } = await adminRequest(endpoint, 'POST', '/cache/purge', JSON.stringify({ urls }), timeoutMs);
  if (status !== 200) throw new Error(`purge refused with ${status}: ${text.slice(0, 200)}`);
  const parsed = purgeAnswer.safeParse(JSON.parse(text));
  if (!parsed.success || parsed.data.results.length !== urls.length) {
    throw new Error(`unexpected purge answer: ${text.slice(0, 200)}`);
  }
  return parsed.data.results;
}

export interface PreheatTarget {
  /** Where nginx listens (the loopback address when it listens on every address). */
  address: string;
  httpPort: number | null;
  httpsPort: number | null;
}

function outcome(url: string, ok: boolean, httpStatus: number | null, cacheStatus: string | null, message: string) {
  return { url, ok, httpStatus, cacheStatus, purged: null, message: message.slice(0, CACHE_URL_MESSAGE_MAX) };
}

/** Requests one URL from the node's nginx and reads the whole answer. */
export function preheatOne(target: PreheatTarget, raw: string, signal?: AbortSignal): Promise<CacheUrlResult> {
  const url = new URL(raw);
  const tls = url.protocol === 'https:';
  const port = tls ? target.httpsPort : target.httpPort;
  if (port === null) {
    return Promise.resolve(outcome(raw, false, null, null, `the node listens on no ${tls ? 'HTTPS' : 'HTTP'} port`));
  }
  return new Promise((resolve) => {
    const options = {
      host: target.address,
      port,
      method: 'GET',
      path: `${url.pathname}${url.search}`,
      headers: { host: url.host, 'user-agent': 'rampart-preheat', 'accept-encoding': 'identity' },
      timeout: PREHEAT_TIMEOUT_MS,
      ...(signal ? { signal } : {}),
    };
    const started = Date.now();
    const done = (result: CacheUrlResult) => {
      clearTimeout(timer);
      resolve(result);
    };
    const onResponse = (res: http.IncomingMessage) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const header = res.headers['x-cache-status'];
        const cacheStatus = typeof header === 'string' && CACHE_STATUS_RE.test(header) ? header : null;
        const ok = status >= 200 && status < 400;
        done(
          outcome(
            raw,
            ok,
            status,
            cacheStatus,
            `${status} ${cacheStatus ?? 'not cached by a rule'}, ${bytes} bytes in ${Date.now() - started} ms`,
          ),
        );
      });
      res.on('error', (err) => done(outcome(raw, false, res.statusCode ?? null, null, err.message)));
    };
    const req = tls
      ? https.request({ ...options, servername: url.hostname, rejectUnauthorized: false }, onResponse)
      : http.request(options, onResponse);
    // The socket timeout catches an idle connection; this one bounds the whole transfer.
    const timer = setTimeout(
      () => req.destroy(new Error(`timed out after ${PREHEAT_TIMEOUT_MS} ms`)),
      PREHEAT_TIMEOUT_MS,
    );
    req.on('timeout', () => req.destroy(new Error('timed out waiting for nginx')));
    req.on('error', (err) => done(outcome(raw, false, null, null, err.message)));
    req.end();
  });
}

/** Preheats every URL, a few at a time; the results keep the URLs' order. */
export async function preheatUrls(target: PreheatTarget, urls: string[], signal?: AbortSignal) {
  const results: CacheUrlResult[] = new Array(urls.length);
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const i = next++;
      results[i] = await preheatOne(target, urls[i] as string, signal);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PREHEAT_CONCURRENCY, urls.length) }, worker));
  return results;
}
