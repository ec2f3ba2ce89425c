import { reportNodeStatus, setNodeStatus } from '@rampart/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSnapshotColumns, SnapshotRepository } from '../src/modules/snapshots/snapshot.repository.js';
import { rowsOf } from '../src/platform/db/rows.js';
import { nodeSend } from './helpers/call.js';
import { queriesDuring } from './helpers/queries.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let f: SiteFixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t);
});
afterAll(async () => t.close());

describe('data-plane triggers', () => {
  it('has a data-plane trigger on every table the snapshot builder reads, but the listed zone-level ones', async () => {
    await f.addDomains(['www.cover.example']);
    const texts = await queriesDuring(t, () => f.snapshot());
    const read = new Set<string>();
    for (const text of texts) {
      for (const m of text.matchAll(/\b(?:from|join)\s+"?([a-z_][a-z0-9_]*)"?/gi)) read.add((m[1] ?? '').toLowerCase());
    }
    const tables = (
      (await t.db.database.db.execute(sql`
        SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r'`)) as unknown as { rows: { name: string }[] }
    ).rows.map((r) => r.name);
    const covered = new Set(
      (
        (await t.db.database.db.execute(sql`
          SELECT c.relname AS name FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
          WHERE g.tgname IN ('dp_dirty_site_ins', 'dp_dirty_site_upd', 'dp_dirty_site_del', 'dp_dirty_membership')
          GROUP BY c.relname
          -- A site table needs its three (insert, update, delete); a membership table its one.
          HAVING count(*) FILTER (WHERE g.tgname LIKE 'dp_dirty_site%') = 3 OR bool_or(g.tgname = 'dp_dirty_membership')`)) as unknown as {
          rows: { name: string }[];
        }
      ).rows.map((r) => r.name),
    );
    const uncovered = [...read].filter((name) => tables.includes(name) && !covered.has(name)).sort();
    // A table the builder starts reading gets a trigger in its migration, or joins this list with a reason.
    expect(uncovered).toEqual(
      [
        // The node's own row and its zone decide which plane it polls and the plane's meta: read
        // again when the nodes' version moves (its own triggers, tested below).
        'nodes',
        'dp_nodes_version',
        // The operator's settings (pages, nginx, exporter) travel in the plane's meta, read at every answer.
        'system_settings',
        // Layer 4 and the zone's listen ports: the snapshot route's part, rebuilt per node.
        'site_ports',
        'zone_ports',
        'zones',
      ].sort(),
    );
    // The tables whose reads depend on data the fixture has none of are covered too.
    for (const name of [
      'certificates',
      'site_modules',
      'site_module_rules',
      'site_auth_credentials',
      'site_auth_groups',
    ]) {
      expect(covered.has(name)).toBe(true);
    }
  });

  it("moves the nodes' version with every write of what the snapshots read of the nodes, and only then", async () => {
    // The columns of nodes the snapshots read: the update trigger names each (a node's status report
    // writes the others every few seconds and must not make every look read every node again).
    const read = Object.values(nodeSnapshotColumns).map((c) => c.name);
    const named = rowsOf<{ name: string }>(
      await t.db.database.db.execute(sql`
        SELECT a.attname AS name FROM pg_trigger g JOIN pg_attribute a
          ON a.attrelid = g.tgrelid AND a.attnum = ANY(g.tgattr::int2[])
        WHERE g.tgname = 'dp_nodes_moved_upd'`),
    ).map((r) => r.name);
    expect(named.sort()).toEqual([...read].sort());
    // Every other table of that read moves it on any write.
    const texts = await queriesDuring(t, () => new SnapshotRepository(t.db.database.db).everyNodeAndGroups());
    const tables = new Set<string>();
    for (const text of texts) {
      for (const m of text.matchAll(/\b(?:from|join)\s+"?([a-z_][a-z0-9_]*)"?/gi))
        tables.add((m[1] ?? '').toLowerCase());
    }
    const moved = rowsOf<{ name: string }>(
      await t.db.database.db.execute(sql`
        SELECT c.relname AS name FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
        WHERE g.tgname IN ('dp_nodes_moved', 'dp_nodes_moved_upd')
        GROUP BY c.relname
        -- Insert (4), delete (8) and update (16), in one trigger or two.
        HAVING bit_or(g.tgtype & 28) = 28`),
    ).map((r) => r.name);
    expect([...tables].sort()).toEqual([
      'group_nodes',
      'group_virtual_nodes',
      'nodes',
      'virtual_node_records',
      'zones',
    ]);
    for (const table of tables) expect(moved).toContain(table);

    const version = async () =>
      Number(
        rowsOf<{ version: string | number }>(
          await t.db.database.db.execute(sql`SELECT version FROM dp_nodes_version WHERE id = 1`),
        )[0]?.version,
      );
    // A status report does not move it.
    const before = await version();
    const reported = await nodeSend(t.app, f.node, reportNodeStatus, {
      body: { version: '1.0.0', appliedVersion: 'v1', lastError: '' },
    });
    expect(reported.statusCode, reported.body).toBe(200);
    expect(await version()).toBe(before);
    // Switching the node off moves it, and the node's next snapshot says so (not the rows kept before).
    await f.addDomains(['www.version.example']);
    expect((await f.snapshot()).dataPlane.domains.map((d: { name: string }) => d.name)).toContain(
      'www.version.example',
    );
    const off = await f.call(setNodeStatus, { body: { ids: [f.node.nodeId], status: 'off' } });
    expect(off.statusCode, off.body).toBe(200);
    expect(await version()).toBeGreaterThan(before);
    expect((await f.snapshot()).dataPlane.domains).toEqual([]);
  });
});
