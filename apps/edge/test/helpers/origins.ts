import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/** A small origin on loopback that answers JSON naming itself, or never answers ('hang'). */
export interface Origin {
  name: string;
  port: number;
  /** Requests seen: the Host header, TLS SNI and X-Request-Id the edge sent, and the body. */
  seen: {
    host: string | undefined;
    sni: string | null;
    url: string | undefined;
    method: string | undefined;
    requestId: string | undefined;
    body: string;
    /** Every request header as received (names lower-case). */
    headers: http.IncomingHttpHeaders;
  }[];
  close(): Promise<void>;
}

export interface OriginOptions {
  address?: string;
  /** A fixed port (default: any free one). */
  port?: number;
  tls?: { cert: string; key: string };
  hang?: boolean;
  /** Extra response headers per request URL (e.g. Cache-Control for the cache tests). */
  responseHeaders?: (url: string) => Record<string, string>;
}

export async function startOrigin(name: string, options: OriginOptions = {}): Promise<Origin> {
  const seen: Origin['seen'] = [];
  const handler: http.RequestListener = (req, res) => {
    const socket = req.socket as typeof req.socket & { servername?: string | false };
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const requestId = req.headers['x-request-id'];
      seen.push({
        host: req.headers.host,
        sni: socket.servername || null,
        url: req.url,
        method: req.method,
        requestId: Array.isArray(requestId) ? requestId.join(',') : requestId,
        body,
        headers: req.headers,
      });
      if (options.hang) return;
      res.setHeader('content-type', 'application/json');
      for (const [name, value] of Object.entries(options.responseHeaders?.(req.url ?? '/') ?? {})) {
        res.setHeader(name, value);
      }
      res.end(JSON.stringify({ server: name, host: req.headers.host, url: req.url, bodyLength: body.length }));
    });
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.address ?? '127.0.0.1', resolve);
  });
  return {
    name,
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The `server` field an origin answered with. */
export function servedBy(body: string): string | null {
  try {
    return (JSON.parse(body) as { server?: string }).server ?? null;
  } catch {
    return null;
  }
}
