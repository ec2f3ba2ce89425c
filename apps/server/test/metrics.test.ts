import { getEmailSetting } from '@rampart/contract';
import { sampleValue } from '@rampart/contract/prometheus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './helpers/auth.js';
import { sendAs, type Token } from './helpers/call.js';
import { joinNode } from './helpers/edge-node.js';
import { edgeEvent, shipBatch } from './helpers/events.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The control plane's `/metrics` (platform/metrics; docs/decisions.md "Metrics"): off without a
// token, refused without the right one, and the Prometheus text that moves with what happens.
const TOKEN = 'metrics-token-0123456789abcdef0123456789';
let t: TestApp;
let off: TestApp;
let client: Token;

/** Scrapes as Prometheus would; `authorization` null sends none. */
const scrape = (app = t.app, authorization: string | null = `Bearer ${TOKEN}`) =>
  app.inject({ method: 'GET', url: '/metrics', headers: authorization === null ? {} : { authorization } });

const sample = sampleValue;

beforeAll(async () => {
  [t, off] = await Promise.all([createTestApp({ config: { metricsToken: TOKEN } }), createTestApp()]);
  client = await signIn(t.app, 'client');
});
afterAll(async () => {
  await Promise.all([t?.close(), off?.close()]);
});

describe('GET /metrics', () => {
  it('is not served when no token is configured', async () => {
    const res = await scrape(off.app);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(101004);
  });

  it('refuses a missing or wrong token with 101012', async () => {
    for (const authorization of [null, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN]) {
      const res = await scrape(t.app, authorization);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(101012);
    }
  });

  it('answers the text format with requests counted by contract route id and status class', async () => {
    const series = 'rampart_http_requests_total{route="client.setting.email",method="GET",status="2xx"}';
    const before = sample((await scrape()).body, series) ?? 0;
    for (let i = 0; i < 3; i += 1) expect((await sendAs(t.app, client, getEmailSetting)).statusCode).toBe(200);
    await sendAs(t.app, { accessToken: 'nonsense' }, getEmailSetting);
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(sample(res.body, series)).toBe(before + 3);
    expect(
      sample(res.body, 'rampart_http_requests_total{route="client.setting.email",method="GET",status="4xx"}'),
    ).toBe(1);
    expect(res.body).toContain('# TYPE rampart_http_request_duration_seconds histogram\n');
    expect(
      sample(res.body, 'rampart_http_request_duration_seconds_count{route="client.setting.email",method="GET"}'),
    ).toBe(before + 4);
    expect(
      sample(
        res.body,
        'rampart_http_request_duration_seconds_bucket{route="client.setting.email",method="GET",le="+Inf"}',
      ),
    ).toBe(before + 4);
  });

  it('reads the queues and states from the config store at each scrape', async () => {
    const text = (await scrape()).body;
    expect(sample(text, 'rampart_dns_unprocessed_changes')).toBe(0);
    expect(sample(text, 'rampart_nodes{state="up"}')).toBe(0);
    expect(text).toContain('# TYPE rampart_node_commands gauge\n');
    expect(sample(text, 'rampart_metrics_collect_errors_total')).toBeUndefined();
    const node = await joinNode(t.app, client, 'edge-metrics');
    const raw = t.db.database.db;
    await raw.execute(
      `INSERT INTO node_commands (owner_id, node_id, type, status, expires_at)
       SELECT owner_id, id, 'reboot', 'failed', now() FROM nodes WHERE id = ${node.nodeId}`,
    );
    await raw.execute(
      `INSERT INTO dns_unprocessed (owner_id, name, type, line, action, ttl, error, next_attempt_at)
       SELECT owner_id, 'www', 'A', 'default', 'upsert', 600, 'refused', now() FROM nodes WHERE id = ${node.nodeId}`,
    );
    const after = (await scrape()).body;
    expect(sample(after, 'rampart_nodes{state="uninitialized"}')).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'rampart_node_commands{status="failed"}')).toBe(1);
    expect(sample(after, 'rampart_dns_unprocessed_changes')).toBe(1);
  });

  it('counts ingested event batches, their events, dropped events and the lag', async () => {
    const node = await joinNode(t.app, client, 'edge-ingest');
    const now = Date.now();
    const res = await shipBatch(t.app, node, {
      batchId: 'metrics-1',
      dropped: 2,
      events: [edgeEvent({ time: now - 30_000 }), edgeEvent({ time: now - 1000 })],
    });
    expect(res.statusCode, res.body).toBe(200);
    const text = (await scrape()).body;
    expect(sample(text, 'rampart_analytics_ingest_batches_total{outcome="ok"}')).toBe(1);
    expect(sample(text, 'rampart_analytics_ingest_events_total')).toBe(2);
    expect(sample(text, 'rampart_analytics_ingest_dropped_events_total')).toBe(2);
    expect(sample(text, 'rampart_analytics_ingest_lag_seconds_count')).toBe(1);
    // The oldest event was 30 s old: counted above 15 s, within 60 s.
    expect(sample(text, 'rampart_analytics_ingest_lag_seconds_bucket{le="15"}')).toBe(0);
    expect(sample(text, 'rampart_analytics_ingest_lag_seconds_bucket{le="60"}')).toBe(1);
    expect(sample(text, 'rampart_analytics_last_ingest_timestamp_seconds')).toBeGreaterThan(now / 1000 - 60);
  });
});
