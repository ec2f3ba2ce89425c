// Which server test files run a second time on PostgreSQL (the `server-postgres` project of
// vitest.config.ts). Every server test file runs on PGlite, which is PostgreSQL itself compiled to
// WebAssembly: the SQL text, its planner and its types are the same. What can differ on a real
// cluster is the driver (postgres.js parses types and pools connections; PGlite has one connection
// and serialises every statement), what several connections do at once (locks, races, savepoints,
// notifications), what the process does with the cluster (start, stop, backups, migrations), and the
// analytics engine the pass pairs with (ClickHouse there, DuckDB in memory on PGlite). A file runs the
// PostgreSQL pass when:
//   1. it works below the routes: it imports a repository, a store or the database platform
//      (`*.repository`, `*-store`/`*.store`, `platform/db/`) or the analytics test helpers, or
//      (`platform/db/store-lock` aside: the file lock of the embedded stores' directory, taken
//      the same whatever the engine; its test starts control planes on the embedded database
//      only, so its PostgreSQL run repeated the PGlite run, 13 s of it), or
//   2. it names the engine (`TEST_DB_KIND`, `RAMPART_TEST_DB`, `pgAdminUrl`, `clickhouseUrl`), or
//   3. it is listed in POSTGRES_TOO below, with why: the own test of a repository (so every
//      repository's statements meet postgres.js at least once; scripts/postgres-pass.test.mjs holds
//      every repository and store to having one), or a test of what several connections do.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Test files (relative to apps/server) that run on PostgreSQL for a reason rule 1 or 2 does not see. */
export const POSTGRES_TOO = {
  // Repositories' own tests, through the API.
  'test/account-zones.test.ts': 'account-zones.repository',
  'test/accounts.test.ts': 'accounts.repository (auth)',
  'test/api-tokens.test.ts': 'api-tokens.repository',
  'test/audit.test.ts': 'audit.repository; the audit triggers commit a change and its record together',
  'test/auth/tokens.test.ts': 'sessions.repository and tickets.repository (auth)',
  'test/auto-certificates.test.ts': 'auto-certificates.repository',
  'test/block-list.test.ts': 'block-list.repository',
  'test/cache-tasks.test.ts': 'cache-tasks.repository',
  'test/certificates.test.ts': 'certificates.repository',
  'test/client-domains.test.ts': 'client-domains.repository',
  'test/dns-publish.test.ts': 'dns-publish.repository',
  'test/domain-access.test.ts': 'domain-access.repository',
  'test/domain-proof.test.ts': 'domain-proof.repository',
  'test/domains.test.ts': 'domains.repository and domains-across-sites.repository',
  'test/firewall-reputation.test.ts': 'reputation.repository (firewall)',
  'test/firewall-rule-kinds.test.ts': 'firewall-rules.repository',
  'test/firewall-l4.test.ts': 'firewall-l4.repository',
  'test/groups.test.ts': 'groups.repository',
  'test/licenses.test.ts': 'licenses.repository',
  'test/logos.test.ts': 'logos.repository',
  'test/monitoring.test.ts':
    'monitor-nodes.repository, monitor-groups.repository, probes.repository, monitor-status.repository',
  'test/node-capacity.test.ts': 'node-capacity.repository (snapshots)',
  'test/node-commands.test.ts': 'node-commands.repository',
  'test/node-upgrade.test.ts': 'node-upgrade.repository',
  'test/nodes.test.ts': 'nodes.repository and node-sockets.repository',
  'test/overview.test.ts': 'overview.repository',
  'test/products.test.ts': 'products.repository',
  'test/roles.test.ts': 'roles.repository',
  'test/site-auth.test.ts': 'site-auth.repository',
  'test/site-cache.test.ts': 'site-cache.repository',
  'test/site-modules.test.ts': 'site-modules.repository',
  'test/site-ports.test.ts': 'site-ports.repository',
  'test/site-settings.test.ts': 'site-settings.repository',
  'test/sites.test.ts': 'sites.repository and site-access.repository (platform/tenancy)',
  'test/user-sites.test.ts': 'announcements.repository (the customer reads them)',
  'test/zone-settings.test.ts': 'zone-settings.repository',
  'test/zones.test.ts': 'zones.repository',
  // What several connections do at once.
  'test/all-or-none.test.ts': "savepoints inside the call's transaction",
  'test/data-plane-fanout.test.ts': 'many nodes polling one change at once',
  'test/data-plane-stream.test.ts': 'streaming nodes woken by one change broadcast',
  'test/dns-settings.test.ts': 'no transaction held while a provider is slow: other calls go on',
};

/** What a file's text shows of rule 1 and 2. */
const BELOW_ROUTES =
  /from '[^']*(?:\.repository|[-.]store|\/platform\/db\/(?!store-lock\.js')[^']*|helpers\/(?:test-analytics|analytics-events|analytics-tenants|clickhouse-server|events|log-lines))\.js'/;
const NAMES_ENGINE = /\b(?:TEST_DB_KIND|RAMPART_TEST_DB|pgAdminUrl|clickhouseUrl)\b/;

/** Why `text` (a test file's source) runs on PostgreSQL by rule 1 or 2, or undefined. */
export function automaticReason(text) {
  if (BELOW_ROUTES.test(text)) return 'works below the routes';
  if (NAMES_ENGINE.test(text)) return 'names the engine';
  return undefined;
}

/** Every test file under `serverRoot` (apps/server), relative to it, with forward slashes. */
export function serverTestFiles(serverRoot) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(path.join(serverRoot, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(file);
      } else if (entry.name.endsWith('.test.ts')) out.push(file);
    }
  };
  walk('src');
  walk('test');
  return out.sort();
}

/** The test files (relative to `serverRoot`) of the PostgreSQL pass. */
export function postgresPassFiles(serverRoot, listed = POSTGRES_TOO) {
  return serverTestFiles(serverRoot).filter(
    (file) => file in listed || automaticReason(readFileSync(path.join(serverRoot, file), 'utf8')) !== undefined,
  );
}
