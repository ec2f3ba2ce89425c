import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickHouseHttp } from '../src/modules/analytics/clickhouse-http-store.js';
import { startClickHouse } from './helpers/clickhouse-server.js';

// The store's ClickHouse client against a real server that closes idle connections after 3 s (as
// every server does after its keep_alive_timeout): a client whose event loop was busy past that
// (a large batch parsed, a loaded machine) still has the closed connection in its pool. A large
// INSERT sent on it failed with EPIPE while its body was written (answered 500 to the node).

let server: Awaited<ReturnType<typeof startClickHouse>>;
let http: ClickHouseHttp;

/** The event loop held, as a large JSON.parse on a loaded machine holds it. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // held
  }
}

beforeAll(async () => {
  server = await startClickHouse({ config: '<keep_alive_timeout>3</keep_alive_timeout>' });
  http = new ClickHouseHttp(new URL(server.url), 'default', {}, 60_000);
  await http.execute('CREATE TABLE rows_in (a String, b UInt64) ENGINE = MergeTree() ORDER BY b');
}, 120_000);
afterAll(async () => {
  http?.closeIdle();
  await server?.stop();
});

describe('ClickHouseHttp', () => {
  it('writes a large INSERT and answers a statement after the server closed the idle connection', async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => JSON.stringify({ a: `/path/${i}/${'x'.repeat(80)}`, b: i }));
    // A statement leaves its connection idle; the loop is busy until the server has closed it.
    expect(await http.select('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    busy(3500);
    await http.insert('rows_in', rows);
    busy(3500);
    expect(await http.select('SELECT count() AS n, sum(b) AS s FROM rows_in')).toEqual([
      { n: 50_000, s: (49_999 * 50_000) / 2 },
    ]);
  }, 60_000);
});
