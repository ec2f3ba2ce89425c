import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { WAF_GROUPS } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../src/platform/db/database.js';

// The WAF groups that came after modules were stored (nosql, ldap, redirect, graphql): a stored
// module lists the groups that are on, so the migration turns them on in the modules saved before
// them — nosql only where sqli is on, since it took over sqli's NoSQL operator check.
const MIGRATION = '0055_waf_new_groups.sql';
const NEW_GROUPS = ['nosql', 'ldap', 'redirect', 'graphql'];
// (cve came later still: 0059_waf_cve_group.sql, below)
const BEFORE_CVE = WAF_GROUPS.filter((g) => g !== 'cve');
const OLD_GROUPS = BEFORE_CVE.filter((g) => !NEW_GROUPS.includes(g));

let db: PGlite;
let files: string[];
const folder = migrationsFolder();
const run = async (file: string) => {
  for (const statement of readFileSync(join(folder, file), 'utf8').split('--> statement-breakpoint')) {
    if (statement.trim()) await db.exec(statement);
  }
};

beforeAll(async () => {
  db = new PGlite();
  files = readdirSync(folder)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  for (const file of files.slice(0, files.indexOf(MIGRATION))) await run(file);
});
afterAll(async () => {
  await db.close();
});

async function insertModule(siteId: number, type: string, name: string, settings: unknown): Promise<number> {
  const rows = await db.query<{ id: number }>(
    'INSERT INTO site_modules (site_id, type, name, settings) VALUES ($1, $2, $3, $4) RETURNING id',
    [siteId, type, name, JSON.stringify(settings)],
  );
  return Number(rows.rows[0]?.id);
}

describe('the migration to the new WAF groups', () => {
  it('turns them on in stored WAF modules, nosql where sqli is on, and leaves the rest as it was', async () => {
    const id = async (sql: string, params: unknown[]) =>
      Number((await db.query<{ id: number }>(`${sql} RETURNING id`, params)).rows[0]?.id);
    const operator = await id("INSERT INTO accounts (tier, account, name) VALUES ('client', 'op', 'op')", []);
    const customer = await id("INSERT INTO accounts (tier, parent_id, account, name) VALUES ('user', $1, 'c', 'c')", [
      operator,
    ]);
    const product = await id("INSERT INTO products (owner_id, name, port_type) VALUES ($1, 'p', 7)", [operator]);
    const site = await id("INSERT INTO sites (owner_id, user_id, product_id, name) VALUES ($1, $2, $3, 's')", [
      operator,
      customer,
      product,
    ]);
    const base = { mode: 'block', sensitivity: 'medium', failMode: 'open', exclusions: [] };
    const all = await insertModule(site, 'waf', 'all', { ...base, groups: OLD_GROUPS });
    const noSqli = await insertModule(site, 'waf', 'no-sqli', {
      ...base,
      groups: OLD_GROUPS.filter((g) => g !== 'sqli'),
    });
    const none = await insertModule(site, 'waf', 'none', { ...base, groups: [] });
    const header = await insertModule(site, 'customHeader', 'h', { groups: ['sqli'] });
    const exclusion = (ruleId: number) => ({ ruleId, group: null, part: 'args', name: 'q', path: '' });
    const excluded = await insertModule(site, 'waf', 'excluded', {
      ...base,
      groups: OLD_GROUPS,
      exclusions: [exclusion(100001), exclusion(100020), { ...exclusion(0), ruleId: null, group: 'xss' }],
    });

    await run(MIGRATION);

    const groupsOf = async (moduleId: number) =>
      (
        await db.query<{ settings: { groups: string[] } }>('SELECT settings FROM site_modules WHERE id = $1', [
          moduleId,
        ])
      ).rows[0]?.settings.groups;
    // In WAF_GROUPS order, as the contract keeps them.
    expect(await groupsOf(all)).toEqual(BEFORE_CVE);
    expect(await groupsOf(noSqli)).toEqual(BEFORE_CVE.filter((g) => g !== 'sqli' && g !== 'nosql'));
    expect(await groupsOf(none)).toEqual(['ldap', 'redirect', 'graphql']);
    expect(await groupsOf(header)).toEqual(['sqli']);
    const other = (
      await db.query<{ settings: Record<string, unknown> }>('SELECT settings FROM site_modules WHERE id = $1', [all])
    ).rows[0]?.settings;
    expect(other).toMatchObject(base);
    // The NoSQL check's exclusions follow its rule to its new id; the others stay as they were.
    const exclusions = (
      await db.query<{ settings: { exclusions: unknown[] } }>('SELECT settings FROM site_modules WHERE id = $1', [
        excluded,
      ])
    ).rows[0]?.settings.exclusions;
    expect(exclusions).toEqual([exclusion(100001), exclusion(114001), { ...exclusion(0), ruleId: null, group: 'xss' }]);

    // A module that already has one of them (saved by a console that knows them) is left alone.
    await db.exec(
      `UPDATE site_modules SET settings = jsonb_set(settings, '{groups}', '["sqli", "ldap"]') WHERE id = ${none}`,
    );
    await run(MIGRATION);
    expect(await groupsOf(none)).toEqual(['sqli', 'ldap']);
    expect(await groupsOf(all)).toEqual(BEFORE_CVE);

    // The migrations after it still apply.
    for (const file of files.slice(files.indexOf(MIGRATION) + 1)) await run(file);
  });
});

// The cve group (exploits of known CVEs): turned on in the stored modules that have every other
// group on (a module that never turned a group off keeps "every group"); one whose customer turned
// a group off, or that already lists cve, is left as it is.
describe('the migration to the cve group', () => {
  it('adds cve last to modules with every other group on and leaves the others alone', async () => {
    const cveDb = new PGlite();
    try {
      const CVE_MIGRATION = '0059_waf_cve_group.sql';
      const runIn = async (file: string) => {
        for (const statement of readFileSync(join(folder, file), 'utf8').split('--> statement-breakpoint')) {
          if (statement.trim()) await cveDb.exec(statement);
        }
      };
      const at = files.indexOf(CVE_MIGRATION);
      expect(at).toBeGreaterThan(files.indexOf(MIGRATION));
      for (const file of files.slice(0, at)) await runIn(file);
      const id = async (sql: string, params: unknown[]) =>
        Number((await cveDb.query<{ id: number }>(`${sql} RETURNING id`, params)).rows[0]?.id);
      const operator = await id("INSERT INTO accounts (tier, account, name) VALUES ('client', 'op', 'op')", []);
      const customer = await id("INSERT INTO accounts (tier, parent_id, account, name) VALUES ('user', $1, 'c', 'c')", [
        operator,
      ]);
      const product = await id("INSERT INTO products (owner_id, name, port_type) VALUES ($1, 'p', 7)", [operator]);
      const site = await id("INSERT INTO sites (owner_id, user_id, product_id, name) VALUES ($1, $2, $3, 's')", [
        operator,
        customer,
        product,
      ]);
      const base = { mode: 'block', sensitivity: 'medium', failMode: 'open', exclusions: [] };
      const insert = (type: string, name: string, settings: unknown) =>
        id('INSERT INTO site_modules (site_id, type, name, settings) VALUES ($1, $2, $3, $4)', [
          site,
          type,
          name,
          JSON.stringify(settings),
        ]);
      const all = await insert('waf', 'all', { ...base, groups: BEFORE_CVE });
      const noXss = await insert('waf', 'no-xss', { ...base, groups: BEFORE_CVE.filter((g) => g !== 'xss') });
      const none = await insert('waf', 'none', { ...base, groups: [] });
      const already = await insert('waf', 'already', { ...base, groups: ['sqli', 'cve'] });
      const header = await insert('customHeader', 'h', { groups: BEFORE_CVE });

      await runIn(CVE_MIGRATION);
      await runIn(CVE_MIGRATION);

      const groupsOf = async (moduleId: number) =>
        (
          await cveDb.query<{ settings: { groups: string[] } }>('SELECT settings FROM site_modules WHERE id = $1', [
            moduleId,
          ])
        ).rows[0]?.settings.groups;
      expect(await groupsOf(all)).toEqual([...WAF_GROUPS]);
      expect(await groupsOf(noXss)).toEqual(BEFORE_CVE.filter((g) => g !== 'xss'));
      expect(await groupsOf(none)).toEqual([]);
      expect(await groupsOf(already)).toEqual(['sqli', 'cve']);
      expect(await groupsOf(header)).toEqual(BEFORE_CVE);
      for (const file of files.slice(at + 1)) await runIn(file);
    } finally {
      await cveDb.close();
    }
  });
});
