import { createDomains } from '@rampart/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let f: SiteFixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t);
});
afterAll(async () => t.close());

const BATCH = 500;
const TOTAL = Number(process.env.BULK_DOMAINS ?? 10_000);

describe('bulk domain creation', () => {
  it(`creates ${TOTAL} domains through the API in batches of ${BATCH}, as bench/edge.ts does (time printed, not asserted)`, async () => {
    const times: number[] = [];
    for (let start = 0; start < TOTAL; start += BATCH) {
      const domains = Array.from({ length: Math.min(BATCH, TOTAL - start) }, (_, i) => ({
        name: `b${start + i}.bulk.example`,
        upstreams: [{ ip: '127.0.0.1', port: 8080 }],
      }));
      const began = performance.now();
      const res = await f.call(createDomains, { params: { siteId: f.siteId }, body: { domains } }, f.user);
      times.push(performance.now() - began);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toHaveLength(domains.length);
    }
    const [row] = (
      (await t.db.database.db.execute(
        sql`SELECT count(*)::int AS n, count(DISTINCT u.domain_id)::int AS up FROM domains d
          LEFT JOIN domain_upstreams u ON u.domain_id = d.id WHERE d.site_id = ${f.siteId}`,
      )) as unknown as { rows: { n: number; up: number }[] }
    ).rows;
    expect(row?.n).toBe(TOTAL);
    expect(row?.up).toBe(TOTAL);
    const total = times.reduce((a, b) => a + b, 0);
    console.log(
      `bulk domain creation (${t.db.database.driver}): ${TOTAL} domains in ${(total / 1000).toFixed(1)} s; ` +
        `batch of ${BATCH}: first ${times[0]?.toFixed(0)} ms, last ${times.at(-1)?.toFixed(0)} ms`,
    );
  }, 900_000);
});
