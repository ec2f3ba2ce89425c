import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PlaneFull } from '@rampart/contract';
import { planeHash } from '@rampart/contract/plane-hash';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeApiError, NodeClient } from '../src/agent/node-api/node-client.js';

// NodeClient.planeStream against a server that writes the stream as a test shapes it: lines split
// over chunks and several in one, keep-alives, a line breaking the contract, a stream gone silent.

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A control plane that answers every request with `respond`, and the URLs it was asked. */
async function serve(respond: (res: http.ServerResponse) => void): Promise<{ client: NodeClient; asked: string[] }> {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    respond(res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { client: new NodeClient(`http://127.0.0.1:${port}`, { nodeId: 7, nodeSecret: 'secret' }), asked };
}

function full(to: string): PlaneFull {
  return {
    type: 'full',
    to,
    meta: {
      cacheEpoch: 0,
      limits: { invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 0, challengeWorkBits: 21 },
      forceSSLCode: 301,
      challenge: { keys: [], passSeconds: 1800 },
    },
    metaHash: '0123456789ab',
    entries: [],
    planeHash: planeHash([]),
  };
}

describe('the plane stream as the agent reads it', () => {
  it('takes each line in order, whole, however the chunks cut them, and skips the keep-alives', async () => {
    const lines = ['1', '2', '3'].map((to) => JSON.stringify(full(to)));
    const { client, asked } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const text = `\n${lines[0]}\n\n${lines[1]}\n${lines[2]}\n`;
      // One chunk of 7 bytes at a time: every line is cut somewhere.
      let at = 0;
      const next = () => {
        if (at >= text.length) return res.end();
        res.write(text.slice(at, at + 7));
        at += 7;
        setImmediate(next);
      };
      next();
    });
    const taken: string[] = [];
    await client.planeStream({ since: '0', plane: '000000000000', meta: '000000000000' }, async (answer) => {
      taken.push(answer.to);
    });
    expect(taken).toEqual(['1', '2', '3']);
    expect(asked[0]).toBe('/api/edge/v1/plane/stream?since=0&plane=000000000000&meta=000000000000');
  });

  it('refuses a line that breaks the contract, after the lines before it', async () => {
    const { client } = await serve((res) => {
      res.writeHead(200);
      res.write(`${JSON.stringify(full('1'))}\n${JSON.stringify({ ...full('2'), planeHash: 'not a hash' })}\n`);
    });
    const taken: string[] = [];
    const error = await client
      .planeStream(null, async (answer) => {
        taken.push(answer.to);
      })
      .catch((err: unknown) => err);
    expect(taken).toEqual(['1']);
    expect(error).toBeInstanceOf(NodeApiError);
    expect(String(error)).toMatch(/plane stream line: planeHash/);
  });

  it('gives up on a stream that went silent', async () => {
    const { client } = await serve((res) => {
      res.writeHead(200);
      res.write('\n');
    });
    const started = Date.now();
    const error = await client.planeStream(null, async () => {}, undefined, 300).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(NodeApiError);
    expect(String(error)).toMatch(/nothing received for 300 ms/);
    // Ended by its 300 ms idle limit, not by the client's request timeout (15 s).
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('says 404 when the control plane has no stream, and stops on its signal', async () => {
    const { client } = await serve((res) => {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Route GET:/plane/stream not found"}');
    });
    const missing = await client.planeStream(null, async () => {}).catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(NodeApiError);
    expect((missing as NodeApiError).status).toBe(404);

    const { client: open } = await serve((res) => {
      res.writeHead(200);
      res.write('\n');
    });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    const stopped = await open.planeStream(null, async () => {}, stop.signal).catch((err: unknown) => err);
    expect(stopped).toBeInstanceOf(NodeApiError);
    expect((stopped as NodeApiError).status).toBe(0);
  });
});
