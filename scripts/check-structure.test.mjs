// The structure checks fail on each kind of violation, and pass on a tree that keeps the rules.
// Each test lays out a small tree of its own and runs the same `check` the lint step runs.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { callerScopes, check, circleKey, MAX_DOC_LINES, MAX_LINES, sqlCount } from './check-structure.mjs';

const roots = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A tree with the given files (path → text) under a fresh temporary folder. */
function tree(files) {
  const root = mkdtempSync(path.join(tmpdir(), 'structure-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

const lines = (n) => 'export const x = 1;\n'.repeat(n);
const none = { sizes: {}, sql: {}, circles: [], modulePairs: [], consoleUpward: [], importRoots: ['apps/server/src'] };

describe('file sizes', () => {
  test('a file within the limit passes, one line over fails', async () => {
    const root = tree({
      'apps/server/src/ok.ts': lines(MAX_LINES),
      'apps/server/src/big.ts': lines(MAX_LINES + 1),
    });
    assert.deepEqual(await check(root, ['sizes'], none), [
      `apps/server/src/big.ts: ${MAX_LINES + 1} lines, over ${MAX_LINES}: split it along its seams`,
    ]);
  });

  test('tests, the schema and the catalogues are not held to it', async () => {
    const root = tree({
      'apps/server/src/a.test.ts': lines(900),
      'apps/server/test/helpers.ts': lines(900),
      'apps/server/src/platform/db/schema.ts': lines(900),
      'apps/console/src/i18n/resources/en-us.ts': lines(900),
    });
    assert.deepEqual(await check(root, ['sizes'], none), []);
  });

  test('a listed file may keep its size but not grow', async () => {
    const root = tree({ 'apps/edge/lua/rampart/waf.lua': '-- x\n'.repeat(501) });
    assert.deepEqual(await check(root, ['sizes'], { ...none, sizes: { 'apps/edge/lua/rampart/waf.lua': 501 } }), []);
    const [problem, ...rest] = await check(root, ['sizes'], {
      ...none,
      sizes: { 'apps/edge/lua/rampart/waf.lua': 500 },
    });
    assert.match(problem, /waf\.lua: 501 lines, grew past its listed 500/);
    assert.deepEqual(rest, []);
  });

  test('a listed file that shrank must lower or leave its entry', async () => {
    const root = tree({ 'apps/server/src/a.ts': lines(450), 'apps/server/src/b.ts': lines(120) });
    const problems = await check(root, ['sizes'], {
      ...none,
      sizes: { 'apps/server/src/a.ts': 480, 'apps/server/src/b.ts': 430, 'apps/server/src/gone.ts': 700 },
    });
    assert.deepEqual(problems, [
      'apps/server/src/a.ts: 450 lines now: lower its SIZE_DEBT entry from 480 to 450',
      `apps/server/src/b.ts: 120 lines now, within ${MAX_LINES}: remove it from SIZE_DEBT`,
      'apps/server/src/gone.ts: listed in SIZE_DEBT but gone: remove it from the list',
    ]);
  });
});

describe('document sizes', () => {
  test('a Markdown file over the limit fails, wherever it is; dependencies and builds are not read', async () => {
    const root = tree({
      'README.md': lines(MAX_DOC_LINES),
      'bench/README.md': lines(MAX_DOC_LINES + 1),
      'docs/decisions/0001-a.md': lines(20),
      'node_modules/x/README.md': lines(MAX_DOC_LINES * 3),
      'apps/console/dist/notes.md': lines(MAX_DOC_LINES * 3),
    });
    const problems = await check(root, ['docs'], none);
    assert.equal(problems.length, 1);
    assert.match(problems[0], new RegExp(`^bench/README\\.md: ${MAX_DOC_LINES + 1} lines, over ${MAX_DOC_LINES}`));
  });
});

describe('SQL outside repositories and stores', () => {
  const query = 'await db.execute(sql`SELECT id FROM sites WHERE id = 1`);\n';

  test('SQL in a service fails; in a repository, a store or the database platform it passes', async () => {
    const root = tree({
      'apps/server/src/modules/a/a.service.ts': query,
      'apps/server/src/modules/a/a.repository.ts': query,
      'apps/server/src/modules/a/events-store.ts': query,
      'apps/server/src/platform/db/database.ts': query,
      'apps/server/src/modules/a/a.service.test.ts': query,
    });
    assert.deepEqual(await check(root, ['sql'], none), [
      'apps/server/src/modules/a/a.service.ts: 2 SQL text(s) outside a repository or store: move them into a *.repository.ts',
    ]);
  });

  test("the analytics store's folder of typed reads is a home for SQL; the analytics services are not", async () => {
    const root = tree({
      'apps/server/src/modules/analytics/store/statistics-reads.ts': query,
      'apps/server/src/modules/analytics/statistics.service.ts': query,
      'apps/server/src/modules/other/store/reads.ts': query,
    });
    assert.deepEqual(await check(root, ['sql'], none), [
      'apps/server/src/modules/analytics/statistics.service.ts: 2 SQL text(s) outside a repository or store: move them into a *.repository.ts',
      'apps/server/src/modules/other/store/reads.ts: 2 SQL text(s) outside a repository or store: move them into a *.repository.ts',
    ]);
  });

  test('SQL text handed to a store by a string counts too', async () => {
    assert.equal(sqlCount("store.query('SELECT 1 AS ok')"), 1);
    assert.equal(sqlCount('const q = `SELECT count(*) AS n FROM events WHERE day = 1`;'), 1);
    assert.equal(
      sqlCount('INSERT INTO dp_entries (a) VALUES (1); DELETE FROM dp_entries; UPDATE dp_meta SET a = 1'),
      3,
    );
    // Words in prose and drizzle's builder are not SQL text.
    assert.equal(sqlCount('// select the rows from the list, then update them\ndb.select().from(sites)'), 0);
  });

  test('a listed file may keep its count, not add to it, and leaves the list at zero', async () => {
    const root = tree({ 'apps/server/src/modules/a/a.service.ts': query, 'apps/server/src/modules/b/b.job.ts': '' });
    assert.deepEqual(await check(root, ['sql'], { ...none, sql: { 'apps/server/src/modules/a/a.service.ts': 2 } }), []);
    assert.deepEqual(
      await check(root, ['sql'], {
        ...none,
        sql: { 'apps/server/src/modules/a/a.service.ts': 1, 'apps/server/src/modules/b/b.job.ts': 3 },
      }),
      [
        'apps/server/src/modules/a/a.service.ts: 2 SQL text(s) outside a repository or store (listed 1): move them into a *.repository.ts',
        'apps/server/src/modules/b/b.job.ts: no SQL left: remove it from SQL_DEBT',
      ],
    );
  });
});

describe("routes pass the caller's plain id or the whole caller", () => {
  test('a route building a scope from caller fields fails; plain ids and the whole caller pass', async () => {
    const good = [
      'binder.bind(r.a, async ({ params }, { caller }) => s.list(caller.operatorId, params.zoneID));',
      'binder.bind(r.b, async ({ body }, { caller }) => s.create(caller, body));',
      'binder.bind(r.c, async (_i, { caller }) => ({ data: await s.get(caller.accountId) }));',
    ].join('\n');
    const bad = [
      'binder.bind(r.a, async ({ params }, { caller }) => s.list({ operatorId: caller.operatorId, zoneId: params.zoneID }));',
      'binder.bind(r.b, async ({ query }, { caller }) => s.page(caller.operatorId, query, caller.zoneScope));',
      'binder.bind(r.c, async ({ body }, { caller }) => s.save(caller.operatorId, body, caller.account));',
      'binder.bind(r.d, async ({ query }, { caller }) => {',
      '  const { operatorId, zoneScope: scope } = caller;',
      '  return s.nodes(operatorId, { ...query, scope });',
      '});',
      'binder.bind(r.e, async ({ body }, { caller }) => s.make({ ...caller, zoneId: body.zoneID }));',
    ].join('\n');
    const root = tree({
      'apps/server/src/modules/a/a.routes.ts': good,
      'apps/server/src/modules/b/b.routes.ts': bad,
      // Services build their scope from the caller they receive.
      'apps/server/src/modules/b/b.service.ts':
        'const s = { operatorId: caller.operatorId, zoneScope: caller.zoneScope };',
    });
    const problem = ': a route builds a scope from caller fields: pass the plain id or the whole caller';
    assert.deepEqual(await check(root, ['caller'], none), [
      `apps/server/src/modules/b/b.routes.ts:1: operatorId: caller.operatorId${problem}`,
      `apps/server/src/modules/b/b.routes.ts:2: caller.zoneScope${problem}`,
      `apps/server/src/modules/b/b.routes.ts:3: caller.account${problem}`,
      `apps/server/src/modules/b/b.routes.ts:5: } = caller${problem}`,
      `apps/server/src/modules/b/b.routes.ts:8: ...caller${problem}`,
    ]);
  });

  test('the account id is a plain id, not the account row', () => {
    assert.deepEqual(callerScopes('s.list(caller.accountId, query)'), []);
    assert.deepEqual(callerScopes('s.create(caller.account.maxLogExportTimes)'), ['1: caller.account']);
  });
});

describe('imports', () => {
  const circle = {
    'apps/server/src/modules/a/a.service.ts': "import { b } from '../b/b.service.js';\nexport const a = () => b;\n",
    'apps/server/src/modules/b/b.service.ts': "import { a } from '../a/a.service.js';\nexport const b = () => a;\n",
    'apps/server/src/modules/c/c.service.ts': "import { a } from '../a/a.service.js';\nexport const c = a;\n",
  };
  const key = 'apps/server/src/modules/a/a.service.ts > apps/server/src/modules/b/b.service.ts';

  test('an import circle and a pair of modules importing each other fail', async () => {
    assert.deepEqual(await check(tree(circle), ['imports'], none), [
      `import circle: ${key}`,
      'server modules import each other: a <> b',
    ]);
  });

  test('a type-only import closes a circle too', async () => {
    const root = tree({
      ...circle,
      'apps/server/src/modules/b/b.service.ts': "import type { A } from '../a/a.service.js';\nexport const b = 1;\n",
      'apps/server/src/modules/a/a.service.ts': "import { b } from '../b/b.service.js';\nexport type A = typeof b;\n",
    });
    assert.deepEqual(await check(root, ['imports'], none), [
      `import circle: ${key}`,
      'server modules import each other: a <> b',
    ]);
  });

  test('listed circles and pairs pass while they last, and must leave the lists once broken', async () => {
    const listed = { ...none, circles: [key], modulePairs: ['a <> b'] };
    assert.deepEqual(await check(tree(circle), ['imports'], listed), []);
    const broken = tree({ ...circle, 'apps/server/src/modules/b/b.service.ts': 'export const b = 1;\n' });
    assert.deepEqual(await check(broken, ['imports'], listed), [
      `import circle gone: remove it from CIRCLE_DEBT: ${key}`,
      'modules no longer import each other: remove from MODULE_PAIR_DEBT: a <> b',
    ]);
  });

  test('a console feature importing a page fails; a page importing a feature passes', async () => {
    const root = tree({
      'apps/console/src/features/stats/Filters.tsx':
        "import { Picker } from '../../pages/sites/Picker';\nexport const F = Picker;\n",
      'apps/console/src/pages/sites/Picker.tsx': 'export const Picker = 1;\n',
      'apps/console/src/pages/sites/SitesPage.tsx':
        "import { F } from '../../features/stats/Filters';\nexport const P = F;\n",
    });
    const edge = 'apps/console/src/features/stats/Filters.tsx > apps/console/src/pages/sites/Picker.tsx';
    const options = { ...none, importRoots: ['apps/console/src'] };
    assert.deepEqual(await check(root, ['imports'], options), [`console import up to a page: ${edge}`]);
    assert.deepEqual(await check(root, ['imports'], { ...options, consoleUpward: [edge] }), []);
  });

  test('a circle has one spelling whichever file it is found from', () => {
    assert.equal(circleKey(['b', 'c', 'a']), 'a > b > c');
    assert.equal(circleKey(['a', 'b', 'c']), 'a > b > c');
  });
});
