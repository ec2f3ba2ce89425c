import { createDomains, listDomains } from '@rampart/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { TEST_DB_KIND } from './helpers/test-db.js';

/**
 * A name taken between the checks and the insert: domains are inserted in one statement per batch
 * (domain-inserts.ts), which fails whole on a unique violation, and the answer must still name the
 * taken domain as the checks do (101009 with 401001 on it), leaving nothing of the batch behind.
 * PostgreSQL only: a second connection holds the name in an open transaction, so the request's
 * checks pass and its insert waits for that transaction, then meets the name (PGlite has one
 * connection, so the race cannot happen there).
 */
describe.skipIf(TEST_DB_KIND !== 'postgres')('a live name taken while a batch is being added', () => {
  let t: TestApp;
  let f: SiteFixture;
  beforeAll(async () => {
    t = await createTestApp();
    f = await siteFixture(t);
  });
  afterAll(async () => t?.close());

  it('answers 101009 naming the taken domain, and adds none of the batch', async () => {
    const [neighbourDomain] = await f.addDomains(['placeholder.race.example'], 'other');
    const holder = new pg.Client({ connectionString: t.db.url as string });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      // The neighbour's site takes the live name, not committed yet.
      await holder.query(
        `INSERT INTO domains (site_id, name, enabled, proof_status, cname_label)
         SELECT site_id, 'taken.race.example', true, 2, 'racelabel0001' FROM domains WHERE id = $1`,
        [neighbourDomain],
      );
      const domains = ['free-1.race.example', 'taken.race.example', 'free-2.race.example'].map((name) => ({
        name,
        upstreams: [{ ip: '127.0.0.1', port: 8080 }],
      }));
      const answer = f.call(createDomains, { params: { siteId: f.siteId }, body: { domains } }, f.user);
      // The request has passed its checks and waits on the held name (bounded wait for it to get there).
      for (let i = 0; i < 100; i++) {
        const { rows } = await holder.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
        );
        if (rows[0].n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await holder.query('COMMIT');
      const res = await answer;
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 101009,
        errors: [{ code: 401001, targets: ['taken.race.example'] }],
      });
    } finally {
      await holder.end();
    }
    const list = await f.call(listDomains, { params: { siteId: f.siteId }, query: { page: 1, pageSize: 100 } }, f.user);
    expect(list.json().data.map((d: { name: string }) => d.name)).toEqual([]);
  });
});
