/**
 * bench:edge's plain nginx: the origin both proxies forward to, and the baseline proxy the edges are
 * measured against (its own flood port answering `return 403`).
 */
import path from 'node:path';
import { freePort } from '../../apps/edge/test/helpers/net.js';
import { startNginx } from './load.js';

export interface Baseline {
  originPort: number;
  baselinePort: number;
  /** The flood's baseline: nginx refusing every request itself, with the same access log. */
  floodPort: number;
  /** The origin's and the baseline's stops, in the order they started. */
  stops: (() => Promise<void>)[];
}

/**
 * - Origin: an nginx answering a small static body (1 worker, keepalive), shared by both proxies.
 * - Baseline: nginx with `workers` workers, proxy_pass to the origin with an upstream keepalive
 *   pool, Host and X-Forwarded-For, and nginx's default access log (combined), buffered like the edge's.
 */
export async function startBaseline(work: string, workers: number): Promise<Baseline> {
  const [originPort, baselinePort, floodPort] = [await freePort(), await freePort(), await freePort()];
  const stops: (() => Promise<void>)[] = [];
  stops.push(
    await startNginx(
      path.join(work, 'origin'),
      1,
      `  access_log off;
  server { listen 127.0.0.1:${originPort} reuseport; location / { return 200 "hello from the origin\\n"; } }`,
    ),
  );
  stops.push(
    await startNginx(
      path.join(work, 'baseline'),
      workers,
      // nginx's default access log format (combined), buffered like the edge's.
      `  access_log ${work}/baseline/logs/access.log combined buffer=64k flush=1s;
  upstream origin { server 127.0.0.1:${originPort}; keepalive 256; }
  server {
    listen 127.0.0.1:${baselinePort};
    location / {
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
  # The flood's baseline: nginx refusing every request itself, with the same access log.
  server { listen 127.0.0.1:${floodPort}; location / { return 403; } }`,
    ),
  );
  return { originPort, baselinePort, floodPort, stops };
}

/** A wrk script of GETs spread over `<prefix><0..count-1>.bench.example` by Host header (same sequence every run). */
export function hostsScript(prefix: string, count: number): string {
  return `math.randomseed(42)
request = function()
  return wrk.format("GET", "/", { ["Host"] = "${prefix}" .. math.random(0, ${count - 1}) .. ".bench.example" })
end
`;
}
