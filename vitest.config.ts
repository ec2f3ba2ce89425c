import { defineConfig } from 'vitest/config';

/**
 * One Vitest run for the whole repository. The server suite runs twice: once on the embedded
 * PGlite and once on a real PostgreSQL cluster that its global setup starts (see
 * apps/server/test/global-setup.ts). Browser tests (Playwright) live in e2e/ and are not run here.
 */
export default defineConfig({
  test: {
    // Two files at once: Vitest's default on these 2-core machines is one (cores − 1), and the
    // suites wait on PostgreSQL, ClickHouse, nginx and the browser-less DOM more than on the CPU
    // (the whole run: 33 min with one worker, 21.5 min with two). VITEST_MAX_WORKERS still overrides.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'contract',
          root: 'packages/contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server-pglite',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          env: { RAMPART_TEST_DB: 'pglite' },
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-postgres',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          env: { RAMPART_TEST_DB: 'postgres' },
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'edge',
          root: 'apps/edge',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          // An agent a test starts never runs the kernel firewall in the host's own namespace (the
          // tests run as root): the layer-4 tests give theirs an nft inside their namespaces.
          env: { RAMPART_EDGE_L4_FIREWALL: 'off' },
          // The integration tests run real nginx processes and openssl.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'console',
          root: 'apps/console',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/test/setup.ts'],
        },
      },
    ],
  },
});
