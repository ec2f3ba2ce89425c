// The PostgreSQL pass's rule holds on this repository: every repository and store of the server
// has a test file in the pass (one that imports it, is named for it or its module, or is listed for it), and every listed file exists and is listed for a
// reason the automatic rules do not already see.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { automaticReason, POSTGRES_TOO, postgresPassFiles, serverTestFiles } from './postgres-pass.mjs';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server');

/** The server's repositories and stores (source, not tests): base name ('zones.repository') and module. */
function storageModules() {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(path.join(serverRoot, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(file);
      else if (/(\.repository|[-.]store)\.ts$/.test(entry.name) && !entry.name.endsWith('.test.ts')) {
        out.push({ base: entry.name.replace(/\.ts$/, ''), module: path.basename(dir) });
      }
    }
  };
  walk('src');
  return out.sort((a, b) => a.base.localeCompare(b.base));
}

/**
 * Whether `file` of the pass is a test of the repository or store: it imports it (the analytics
 * stores through the helper that opens them), it is named for it or for its module (`zones.test.ts`,
 * `alerts-spike.test.ts`, `test/auth/…`), or its listed reason names it.
 */
function tests(file, text, reason, { base, module }) {
  const name = file.replace(/^.*\//, '').replace(/\.test\.ts$/, '');
  const own = base.replace(/\.repository$/, '');
  return (
    text.includes(`/${base}.js'`) ||
    (module === 'analytics' && text.includes("/helpers/test-analytics.js'")) ||
    [own, module].some((prefix) => name === prefix || name.startsWith(`${prefix}-`)) ||
    file.startsWith(`test/${module}/`) ||
    (reason ?? '').split(/[ ,()]+/).includes(base)
  );
}

/** The repositories and stores with no test file in the pass. */
function untested(listed) {
  const pass = postgresPassFiles(serverRoot, listed).map((file) => ({
    file,
    text: readFileSync(path.join(serverRoot, file), 'utf8'),
  }));
  return storageModules()
    .filter((storage) => !pass.some(({ file, text }) => tests(file, text, listed[file], storage)))
    .map(({ base }) => base);
}

test('every repository and store has a test file in the PostgreSQL pass', () => {
  assert.ok(storageModules().length > 50, 'the walk finds the repositories');
  assert.deepEqual(untested(POSTGRES_TOO), []);
});

test('a repository whose only test leaves the list is reported', () => {
  const { 'test/roles.test.ts': _dropped, ...rest } = POSTGRES_TOO;
  assert.deepEqual(untested(rest), ['roles.repository']);
});

test('every listed file exists and is not already in the pass by its own text', () => {
  const all = new Set(serverTestFiles(serverRoot));
  for (const file of Object.keys(POSTGRES_TOO)) {
    assert.ok(all.has(file), `${file} is listed but is no test file`);
    const reason = automaticReason(readFileSync(path.join(serverRoot, file), 'utf8'));
    assert.equal(reason, undefined, `${file} is listed but ${reason}: remove it from POSTGRES_TOO`);
  }
});

test('the automatic rules see store-level files and files naming the engine, not API-only files', () => {
  assert.ok(automaticReason("import { ZonesRepository } from '../src/modules/zones/zones.repository.js';"));
  assert.ok(automaticReason("import { openDuckDbStore } from '../src/modules/analytics/duckdb-store.js';"));
  assert.ok(automaticReason("import { openDatabase } from '../src/platform/db/database.js';"));
  // The embedded stores' directory lock is no part of the database: the same on either engine.
  assert.equal(automaticReason("import { lockStore } from '../src/platform/db/store-lock.js';"), undefined);
  assert.ok(automaticReason("import { createTestAnalyticsStore } from './helpers/test-analytics.js';"));
  assert.ok(automaticReason("describe.skipIf(TEST_DB_KIND !== 'postgres')('a race', () => {});"));
  assert.equal(automaticReason("import { createTestApp } from './helpers/test-app.js';"), undefined);
  const pass = postgresPassFiles(serverRoot);
  assert.ok(pass.length < serverTestFiles(serverRoot).length, 'the pass is a part of the server suite');
});
