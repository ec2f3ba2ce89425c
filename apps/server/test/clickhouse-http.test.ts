import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
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

/**
 * A hop between the client and ClickHouse that, once `dropping`, runs a request that came on a
 * connection already used and then closes that connection without answering: what the client
 * sees when the server ran a statement and closed before its answer ("socket hang up").
 */
async function hangingUpHop(): Promise<{
  url: string;
  dropping: { on: boolean; done: number };
  close: () => Promise<void>;
}> {
  const target = new URL(server.url);
  const used = new WeakSet<Socket>();
  const dropping = { on: false, done: 0 };
  const hop: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const reused = used.has(req.socket);
    used.add(req.socket);
    const answer = await fetch(`http://${target.host}${req.url}`, {
      method: 'POST',
      headers: { authorization: req.headers.authorization ?? '', 'content-type': 'text/plain; charset=utf-8' },
      body: Buffer.concat(chunks),
    });
    const text = await answer.text();
    if (dropping.on && reused) {
      dropping.done++;
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(text);
  });
  await new Promise<void>((resolve) => hop.listen(0, '127.0.0.1', resolve));
  const { port } = hop.address() as { port: number };
  return {
    url: `http://${target.username}:${target.password}@127.0.0.1:${port}/`,
    dropping,
    close: () => new Promise<void>((resolve) => hop.close(() => resolve())),
  };
}

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

  it('sends a read again when its connection hung up unanswered, never a write the server may have run', async () => {
    await http.execute('CREATE TABLE copies (b UInt64) ENGINE = MergeTree() ORDER BY b');
    const hop = await hangingUpHop();
    const client = new ClickHouseHttp(new URL(hop.url), 'default', {}, 60_000);
    try {
      // A read leaves its connection idle in the pool; from now on a reused one hangs up after running.
      expect(await client.select('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      hop.dropping.on = true;
      // A backfill (INSERT … SELECT, as the rollups' DAILY_FROM_HOURS): applied once.
      await client.execute('INSERT INTO copies SELECT number FROM numbers(10)');
      expect(await http.select('SELECT count() AS n FROM copies')).toEqual([{ n: 10 }]);
      expect(hop.dropping.done).toBe(0);
      // A read on the reused connection: hung up, sent again on a new one, answered.
      expect(await client.select('SELECT 2 AS two')).toEqual([{ two: 2 }]);
      expect(hop.dropping.done).toBe(1);
    } finally {
      client.closeIdle();
      await hop.close();
    }
  }, 60_000);
});
