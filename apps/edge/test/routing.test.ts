import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

const LUA_ERROR_SNIPPET =
  'location = /__rampart_test/lua-error { rewrite_by_lua_block { require("rampart.router").route(); error("injected failure") } }';

let edge: Edge;
let alpha: Origin;
let beta: Origin;

beforeAll(async () => {
  alpha = await startOrigin('alpha');
  beta = await startOrigin('beta');
  edge = await startEdge({}, { serverSnippet: LUA_ERROR_SNIPPET });
});

afterAll(async () => {
  await edge?.stop();
  await alpha?.close();
  await beta?.close();
});

describe('routing by Host', () => {
  it('answers 503 with a page before any data plane was pushed', async () => {
    const answer = await request(edge.httpPort, 'a.example.com');
    expect(answer.status).toBe(503);
    expect(answer.body).toContain('This edge node has no configuration yet.');
  });

  it('sends a pushed domain to its upstream, keeping the path, query and Host', async () => {
    await edge.push(
      document('routing-1', [
        domain(1, 'a.example.com', [upstream(alpha.port)]),
        domain(2, 'b.example.com', [upstream(beta.port)], { origin: { host: 'origin.example.net' } }),
      ]),
    );
    const a = await request(edge.httpPort, 'A.Example.com:8080', '/some/path?x=1&y=2');
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toEqual({
      server: 'alpha',
      host: 'a.example.com',
      url: '/some/path?x=1&y=2',
      bodyLength: 0,
    });

    const b = await request(edge.httpPort, 'b.example.com', '/');
    expect(servedBy(b.body)).toBe('beta');
    expect(JSON.parse(b.body).host).toBe('origin.example.net');
  });

  it('answers an unknown host with the 404 page and no internals', async () => {
    for (const host of ['unknown.example.com', 'localhost', '127.0.0.1', '*.example.com']) {
      const answer = await request(edge.httpPort, host);
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.body).toContain('This domain is not served here');
      expect(answer.body).not.toMatch(/lua|nginx|stack|traceback/i);
    }
  });

  it('answers a disabled domain with the 403 page and never reaches its origin', async () => {
    const before = alpha.seen.length;
    await edge.push(document('routing-2', [domain(3, 'off.example.com', [upstream(alpha.port)], { enabled: false })]));
    const answer = await request(edge.httpPort, 'off.example.com');
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('This domain is disabled');
    expect(alpha.seen.length).toBe(before);
  });

  it.each([301, 302, 307, 308] as const)('redirects plain HTTP to HTTPS with %i when forceSSL is on', async (code) => {
    await edge.push(
      document(`routing-ssl-${code}`, [
        domain(4, 'secure.example.com', [upstream(alpha.port)], { forceSSL: true, forceSSLCode: code }),
      ]),
    );
    const answer = await request(edge.httpPort, 'secure.example.com', '/login?next=%2Fhome');
    expect(answer.status).toBe(code);
    expect(answer.headers.location).toBe(`https://secure.example.com:${edge.httpsPort}/login?next=%2Fhome`);
  });

  it('matches a wildcard domain one level deep only, and an exact name wins over it', async () => {
    await edge.push(
      document('routing-wildcard', [
        domain(5, '*.w.example.com', [upstream(alpha.port)]),
        domain(6, 'exact.w.example.com', [upstream(beta.port)]),
      ]),
    );
    expect(servedBy((await request(edge.httpPort, 'one.w.example.com')).body)).toBe('alpha');
    expect(servedBy((await request(edge.httpPort, 'exact.w.example.com')).body)).toBe('beta');
    expect((await request(edge.httpPort, 'two.one.w.example.com')).status).toBe(404);
    expect((await request(edge.httpPort, 'w.example.com')).status).toBe(404);
  });

  it('writes a JSON access-log line with the request id, host, upstream status and matched domain id', async () => {
    await edge.push(document('routing-log', [domain(77, 'logged.example.com', [upstream(alpha.port)])]));
    const answer = await request(edge.httpPort, 'logged.example.com', '/logged-path');
    expect(answer.status).toBe(200);
    let line: Record<string, string> | undefined;
    for (let i = 0; i < 40 && !line; i++) {
      await new Promise((r) => setTimeout(r, 100)); // the access log is buffered with flush=1s
      line = (await edge.accessLog())
        .split('\n')
        .filter((l) => l.includes('/logged-path'))
        .map((l) => JSON.parse(l) as Record<string, string>)[0];
    }
    expect(line).toMatchObject({
      host: 'logged.example.com',
      status: '200',
      upstream_status: '200',
      domain_id: '77',
    });
    // <node>-<worker pid>-<worker start>-<serial>, and the one the origin received.
    expect(line?.request_id).toMatch(/^edge-\d+-[0-9a-f]+-\d+$/);
    expect(alpha.seen.find((s) => s.url === '/logged-path')?.requestId).toBe(line?.request_id);
    expect(Number(line?.request_time)).toBeGreaterThanOrEqual(0);
  });

  it('turns a Lua error into a 500 page for that request only, logged, with the workers alive', async () => {
    await edge.push(document('routing-error', [domain(8, 'err.example.com', [upstream(alpha.port)])]));
    const workers = await edge.nginx.workerPids();
    const failed = await request(edge.httpPort, 'err.example.com', '/__rampart_test/lua-error');
    expect(failed.status).toBe(500);
    expect(failed.body).toContain('The edge could not handle this request');
    expect(failed.body).not.toContain('injected failure');
    expect(await edge.errorLog()).toContain('injected failure');

    const next = await request(edge.httpPort, 'err.example.com', '/fine');
    expect(next.status).toBe(200);
    expect(await edge.nginx.workerPids()).toEqual(workers);
  });
});
