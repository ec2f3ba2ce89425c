import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from '../../src/app.js';
import type { AnalyticsStore } from '../../src/modules/analytics/analytics-store.js';

import { createTestAnalyticsStore } from './test-analytics.js';
import { createTestDatabase, type TestDatabase } from './test-db.js';

/** Off while RAMPART_RECORD_ROUTE_CODES records what the routes answer: every code is recorded as it is. */
const STRICT_ROUTE_CODES = !process.env.RAMPART_RECORD_ROUTE_CODES;

/** Password of the root accounts in tests. */
export const TEST_PASSWORD = 'horse battery staple 42';

export interface TestApp {
  readonly app: FastifyInstance;
  readonly db: TestDatabase;
  /** Every JSON log line the app wrote. */
  readonly logs: Record<string, unknown>[];
  /** The same lines as written (a key written twice is visible only here). */
  readonly rawLogs: string[];
  close(): Promise<void>;
}

/**
 * The configuration the tests' apps run with (`overrides` on top): loopback everything, and every
 * background job off until a test drives it.
 */
export function testConfig(overrides: Partial<AppOptions['config']> = {}): AppOptions['config'] {
  return {
    version: 'test',
    // No agent release unless a test makes one (node-upgrade.test.ts).
    agentReleaseDir: null,
    consoleDir: null,
    logLevel: 'info',
    secret: 'test-secret-0123456789-0123456789-0123456789',
    initPassword: TEST_PASSWORD,
    publicUrl: 'http://127.0.0.1:9',
    smtpUrl: undefined,
    accessTokenTtlSeconds: 900,
    // The tests' origins are loopback upstreams; the refusal is tested with this turned off.
    allowPrivateOrigins: true,
    allowPrivateTargets: true,
    // No test reaches the system's resolvers: cname.test.ts points this at its own DNS server.
    dnsServers: ['127.0.0.1:9'],
    dnsTimeoutMs: 2000,
    // Domains go live without proof of control unless a test asks for it (domain-proof.test.ts).
    domainProof: false,
    domainProofIntervalSeconds: 0,
    // Log exports run when a test drives the job (log-exports.test.ts).
    logExportTickMs: 0,
    // Log push runs when a test wakes or drives the job (log-push.test.ts).
    logPushTickMs: 0,
    // DNS publication passes run when a test asks (the API or app.rampart.dnsReconciler).
    dnsPublish: false,
    // Automatic certificates are issued when a test drives the job (auto-certificates.test.ts).
    autoCert: { timing: { tickMs: 0 } },
    // The traffic check runs when a test drives it (traffic.test.ts).
    trafficCheckTickMs: 0,
    // The licence expiry check runs when a test drives it (licence-expiry.test.ts).
    licenceExpiryTickMs: 0,
    // The embedded database's vacuum runs when a test drives it (embedded-vacuum.test.ts).
    embeddedVacuumTickMs: 0,
    ...overrides,
  };
}

/**
 * The real app on a fresh copy of the template database, logging into memory. A route that answers
 * a catalogue code it does not declare answers 101002 instead (`strictRouteCodes`, on unless a test
 * turns it off), so a test reaching an undeclared code fails.
 */
export async function createTestApp(
  options: Partial<
    Pick<
      AppOptions,
      'extraRoutes' | 'clock' | 'strictRouteCodes' | 'licenseKeys' | 'targetResolver' | 'onDemandSendLimit'
    >
  > & {
    config?: Partial<AppOptions['config']>;
    /** The database to run on (closed with the app), instead of a copy of the template. */
    db?: TestDatabase;
    /** The analytics store to run on (opened; closed with the app), instead of a store of its own. */
    analytics?: AnalyticsStore;
  } = {},
): Promise<TestApp> {
  const db = options.db ?? (await createTestDatabase());
  const logs: Record<string, unknown>[] = [];
  const rawLogs: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        rawLogs.push(line);
        logs.push(JSON.parse(line));
      }
      done();
    },
  });
  // DuckDB in memory beside PGlite, ClickHouse beside PostgreSQL (test/global-setup.ts).
  const analytics = options.analytics ?? (await createTestAnalyticsStore());
  const app = await buildApp({
    analytics,
    config: testConfig(options.config),
    ...(options.clock ? { clock: options.clock } : {}),
    database: db.database,
    logger: { level: 'info', stream },
    checkErrorReplies: true,
    ...(options.extraRoutes ? { extraRoutes: options.extraRoutes } : {}),
    ...(options.licenseKeys ? { licenseKeys: options.licenseKeys } : {}),
    ...(options.targetResolver ? { targetResolver: options.targetResolver } : {}),
    ...(options.onDemandSendLimit ? { onDemandSendLimit: options.onDemandSendLimit } : {}),
    strictRouteCodes: options.strictRouteCodes ?? STRICT_ROUTE_CODES,
  });
  await app.ready();
  return {
    app,
    db,
    logs,
    rawLogs,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
