import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { postgresPassFiles } from './scripts/postgres-pass.mjs';

/**
 * One Vitest run for the whole repository. The server suite runs on the embedded PGlite, and the
 * part of it whose outcome can differ there again on a real PostgreSQL cluster that its global setup
 * starts (see `postgresTests` below and apps/server/test/global-setup.ts). Browser tests
 * (Playwright) live in e2e/ and are not run here.
 *
 * Files share a process per worker (`isolate: false`): each file still gets its own environment
 * (jsdom for the console) and runs its own hooks, but the modules already imported stay loaded —
 * node_modules (Fastify, PGlite, DuckDB, antd, React) take seconds to import, and the machine's two
 * cores were spent on that. Measured on 18 server files, 147 s with a fresh process each and 86 s
 * shared; on 14 console files, 186 s and 107 s. What a test changes of shared state it restores
 * (the console's setup resets storage, language and the DOM). A file that replaces a module with
 * `vi.mock` (a module another file loaded first would stay the real one) or that reads modules as a
 * fresh start leaves them runs in its package's `*-fresh` project, a process each as before.
 */
function freshFiles(root: string, dirs: string[], always: string[]): string[] {
  const found = new Set(always);
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.test\.tsx?$/.test(entry.name) && readFileSync(path.join(root, file), 'utf8').includes('vi.mock(')) {
        found.add(file);
      }
    }
  };
  for (const dir of dirs) walk(dir);
  return [...found];
}

/**
 * A package's project: its files sharing processes, and, when some must not, a `<name>-fresh`
 * project with those files. `include` is globs, or the project's files themselves.
 */
function projects(name: string, root: string, include: string[], test: Record<string, unknown>, always: string[] = []) {
  const fresh = freshFiles(root, [...new Set(include.map((glob) => glob.split('/')[0] as string))], always).filter(
    (file) => include.some((glob) => glob.includes('*') || glob === file),
  );
  // Vitest's own exclusions (node_modules) stay: `exclude` replaces them when given.
  const shared = {
    test: { ...test, name, root, include, exclude: [...configDefaults.exclude, ...fresh], isolate: false },
  };
  if (fresh.length === 0) return [shared];
  return [shared, { test: { ...test, name: `${name}-fresh`, root, include: fresh } }];
}

const serverTests = ['src/**/*.test.ts', 'test/**/*.test.ts'];
/**
 * The server suite runs whole on PGlite (PostgreSQL compiled to WebAssembly: the same SQL, planner
 * and types), and on a real cluster only the files whose outcome can differ there: store-level
 * tests, files naming the engine, each repository's own test and the tests of several connections
 * at once (scripts/postgres-pass.mjs says the rule; scripts/postgres-pass.test.mjs holds every
 * repository and store to a test in it). 80 of 147 files; the 67 left out took 161–167 s of the
 * pass's 524–558 s in the last clean-clone runs.
 */
const postgresTests = postgresPassFiles('apps/server');

/**
 * The server files run on a ClickHouse cluster too, each for what the cluster changes of it: the
 * layout and per-shard upkeep (clickhouse-cluster, analytics-store: rollups by the shards' views,
 * pruning and compaction per shard, retries of a batch cut between shards), the nodes' aggregates
 * and layer-4 counters counted once per site across shards (aggregate-ingest, aggregates-api,
 * l4-analytics-store), reads through the Distributed tables (statistics, l4-statistics, logs'
 * filters and paging), the log parts listed, dropped and pruned per shard (log-settings), a second
 * control plane on the same shards (control-planes-serve-alike), the tables the aggregates added
 * (aggregate-sketches, logs-collapsed), the log search's merge of a flood's records within a query's memory
 * (log-search-memory). Together 163 s on one worker
 * (2026-11-29, loaded machine).
 */
const CLUSTER_TESTS = [
  'test/clickhouse-cluster.test.ts',
  'test/analytics-store.test.ts',
  'test/aggregate-ingest.test.ts',
  'test/aggregates-api.test.ts',
  'test/l4-analytics-store.test.ts',
  'test/statistics.test.ts',
  'test/l4-statistics.test.ts',
  'test/logs.test.ts',
  'test/log-settings.test.ts',
  'test/control-planes-serve-alike.test.ts',
  'test/aggregate-sketches.test.ts',
  'test/logs-collapsed.test.ts',
  'test/log-search-memory.test.ts',
];
const server = {
  environment: 'node',
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    // Three files at once on these 2-core machines (Vitest's default is cores − 1): the suites wait
    // on PostgreSQL, ClickHouse, nginx and the browser-less DOM more than on the CPU (the whole run:
    // 33 min with one worker, 21.5 min with two), and the edge's chain files wait on the real clock
    // (a node ships a minute's sketches at its close; the monitor's 10 s rounds): eight such files
    // took 450 s of the 2,261 s of file time in a clean clone's 1,181 s stage with two workers
    // (2026-11-29), mostly waiting. A third file runs in those waits. VITEST_MAX_WORKERS overrides.
    maxWorkers: 3,
    projects: [
      ...projects('contract', 'packages/contract', ['src/**/*.test.ts'], { environment: 'node' }),
      ...projects('server-pglite', 'apps/server', serverTests, { ...server, env: { RAMPART_TEST_DB: 'pglite' } }),
      ...projects('server-postgres', 'apps/server', postgresTests, { ...server, env: { RAMPART_TEST_DB: 'postgres' } }),
      // The analytics suite again on two ClickHouse shards of one cluster (global-setup.ts).
      {
        test: {
          ...server,
          name: 'server-clickhouse-cluster',
          root: 'apps/server',
          include: CLUSTER_TESTS,
          env: { RAMPART_TEST_DB: 'postgres', RAMPART_TEST_CLICKHOUSE: 'cluster' },
          // Every read and INSERT fans out to both servers, on the same two cores (the servers'
          // data in memory: the analytics store's file 50 s here, 37 s on one server, 2026-11-29).
          testTimeout: 120_000,
          isolate: false,
        },
      },
      ...projects('edge', 'apps/edge', ['src/**/*.test.ts', 'test/**/*.test.ts'], {
        environment: 'node',
        // An agent a test starts never runs the kernel firewall in the host's own namespace (the
        // tests run as root): the layer-4 tests give theirs an nft inside their namespaces.
        env: { RAMPART_EDGE_L4_FIREWALL: 'off' },
        // The integration tests run real nginx processes and openssl.
        testTimeout: 60_000,
        hookTimeout: 60_000,
      }),
      ...projects(
        'console',
        'apps/console',
        ['src/**/*.test.{ts,tsx}'],
        { environment: 'jsdom', setupFiles: ['src/test/setup.ts'] },
        // Which languages a fresh start has loaded (the setup loaded English only).
        ['src/i18n/i18n.test.ts'],
      ),
    ],
  },
});
