import { type AppOptions, buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openAnalyticsStore } from './modules/analytics/open-store.js';
import { KeyMismatchError } from './platform/crypto/key-check.js';
import { openDatabase } from './platform/db/database.js';
import { StoreLockedError } from './platform/db/store-lock.js';

/**
 * Starts the control plane: config from the environment, migrations, HTTP, graceful shutdown.
 * `extra` is for a test harness that runs the built server in its own process (the browser
 * tests' licence key, e2e/support/control-plane-entry.mjs); `npm start` passes nothing, and nothing
 * in the environment can add to it.
 */
export async function startControlPlane(extra: Pick<AppOptions, 'licenseKeys'> = {}): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`rampart: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({
      ...config,
      onLockLost: (error) => {
        // Another process could now open the same store: stop rather than write beside it.
        process.stderr.write(`rampart: ${error.message}; stopping\n`);
        process.exit(1);
      },
    });
  } catch (error) {
    if (error instanceof StoreLockedError) {
      process.stderr.write(`rampart: ${error.message}\n`);
      process.exit(3);
    }
    throw error;
  }
  await database.migrate();
  let analytics: Awaited<ReturnType<typeof openAnalyticsStore>>;
  try {
    analytics = await openAnalyticsStore(config);
  } catch (error) {
    if (error instanceof StoreLockedError) {
      process.stderr.write(`rampart: ${error.message}\n`);
      process.exit(3);
    }
    throw error;
  }
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp({ config, database, analytics, ...extra });
  } catch (error) {
    if (error instanceof KeyMismatchError) {
      process.stderr.write(`rampart: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  app.log.info(
    {
      database: database.driver,
      analytics: analytics.kind,
      dataDir: config.dataDir,
      console: config.consoleDir ?? 'not built',
    },
    'config store ready',
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // In-flight requests finish; a stuck one cannot hold the process forever.
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  const address = await app.listen({ host: config.host, port: config.port });
  const url = address;
  const generated = app.rampart.createdRoots.filter((r) => r.generatedPassword);
  if (generated.length > 0) {
    // Shown once, on the terminal only (not in the JSON log): the accounts were just created.
    const lines = generated.map(
      (r) => `  ${r.tier.padEnd(7)} console: account "${r.account}", password ${r.generatedPassword}`,
    );
    process.stdout.write(
      `\nRoot accounts created (set RAMPART_INIT_PASSWORD to choose the password instead):\n${lines.join('\n')}\nKeep these now; they are not shown again.\n`,
    );
  }
  app.log.info({ url }, 'Rampart is listening');
  process.stdout.write(`\nRampart control plane: ${url}/  (API docs: ${url}/api/v1/docs)\n\n`);
}
