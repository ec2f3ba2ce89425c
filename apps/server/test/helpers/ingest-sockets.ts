import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import {
  type AggregateBatch,
  EVENT_BATCH_CONTENT_TYPE,
  MinuteAggregator,
  routeUrl,
  shipNodeAggregates,
} from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import type { AnalyticsStore } from '../../src/modules/analytics/analytics-store.js';
import { type AnalyticsTenants, analyticsTenants } from './analytics-tenants.js';
import type { JoinedNode } from './edge-node.js';
import { edgeEvent } from './events.js';
import { createTestApp, type TestApp } from './test-app.js';

/** The minute the ingest-over-sockets tests' batches count. */
export const INGEST_MINUTE = Date.UTC(2026, 10, 28, 10, 0, 0);
export const AGGREGATES_PATH = routeUrl(shipNodeAggregates);

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A listening test app with the analytics tenants, for the node API's ingest admission over real
 * sockets (aggregates-admission.test.ts, aggregates-shedding.test.ts).
 */
export interface IngestSockets {
  t: TestApp;
  tenants: AnalyticsTenants;
  /**
   * One request over its own connection; `body` null: headers only, the body never sent;
   * `socket` handed out to end it early.
   */
  post(
    path: string,
    headers: Record<string, string>,
    body: Buffer | null,
    onSocket?: (socket: Socket) => void,
  ): Promise<Answer>;
  /** A batch's content type and the node's signed headers over `body` (at the app's clock). */
  signed(node: JoinedNode, path: string, body: Buffer, options?: { bodyHash?: boolean }): Record<string, string>;
  /** An aggregate batch of `requests` of the shop's domain in INGEST_MINUTE, and its gzip. */
  batchOf(batchId: string, requests: number): { batch: AggregateBatch; gzip: Buffer };
}

export async function ingestSockets(options: {
  clock: { now: () => number };
  analytics: AnalyticsStore;
  config?: NonNullable<Parameters<typeof createTestApp>[0]>['config'];
}): Promise<IngestSockets> {
  const t = await createTestApp({ clock: options.clock.now, analytics: options.analytics, config: options.config });
  const tenants = await analyticsTenants(t, {
    shop: 'www.shop.example',
    neighbour: 'www.next.example',
    rival: 'www.elsewhere.example',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as { port: number }).port;
  return {
    t,
    tenants,
    post: (path, headers, body, onSocket) =>
      new Promise((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        });
        req.on('error', reject);
        if (onSocket) req.on('socket', onSocket);
        if (body === null) req.flushHeaders();
        else req.end(body);
      }),
    signed: (node, path, body, signOptions = {}) => ({
      'content-type': EVENT_BATCH_CONTENT_TYPE,
      ...signedNodeHeaders({ nodeId: node.nodeId, nodeSecret: node.secret }, 'POST', path, body, {
        nowMs: options.clock.now(),
        bodyHash: signOptions.bodyHash,
      }),
    }),
    batchOf: (batchId, requests) => {
      const aggregator = new MinuteAggregator();
      for (let i = 0; i < requests; i++) {
        aggregator.add(edgeEvent({ time: INGEST_MINUTE + i * 1000, domainId: tenants.domainId }));
      }
      aggregator.closeAll();
      const batch: AggregateBatch = {
        batchId,
        dropped: 0,
        closedThrough: INGEST_MINUTE + 60_000,
        minutes: aggregator.take().minutes,
        collapsed: [],
      };
      return { batch, gzip: gzipSync(JSON.stringify(batch)) };
    },
  };
}
