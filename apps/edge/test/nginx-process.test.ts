import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NginxConfigError } from '../src/nginx/nginx-process.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { freePort, request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

let origin: Origin;
let edge: Edge;

beforeAll(async () => {
  origin = await startOrigin('origin');
});

afterAll(async () => {
  await origin?.close();
});

afterEach(async () => {
  await edge?.stop();
});

/** The command line of `pid`, '' when it is gone (or a zombie). */
function commandOf(pid: number | null): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

async function startServing(): Promise<Edge> {
  edge = await startEdge();
  await edge.push(document('served', [domain(1, 'site.example.com', [upstream(origin.port)])]));
  expect(servedBy((await request(edge.httpPort, 'site.example.com')).body)).toBe('origin');
  return edge;
}

describe('nginx process control', () => {
  it('keeps the previous config active and serving when nginx -t refuses a new one', async () => {
    await startServing();
    const version = await edge.nginx.currentVersion();
    const workers = await edge.nginx.workerPids();

    const bad = edge.render({}, { serverSnippet: 'rampart_no_such_directive on;' });
    const error = await edge.nginx.reload(bad).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(NginxConfigError);
    expect((error as NginxConfigError).emerg.join('\n')).toMatch(
      /\[emerg\].*unknown directive "rampart_no_such_directive"/,
    );
    expect(await readdir(path.join(edge.prefix, 'versions'))).toEqual([version]);

    expect(await edge.nginx.currentVersion()).toBe(version);
    expect(await edge.nginx.workerPids()).toEqual(workers);
    expect(servedBy((await request(edge.httpPort, 'site.example.com')).body)).toBe('origin');
  });

  it('switches back when the master rejects a reload that passed nginx -t (port taken)', async () => {
    await startServing();
    const version = await edge.nginx.currentVersion();
    const taken = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(taken, '127.0.0.1', resolve));
    try {
      const error = await edge.nginx
        .reload(edge.render({ httpPorts: [edge.httpPort, taken] }))
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(NginxConfigError);
      expect((error as NginxConfigError).emerg.join('\n')).toMatch(/bind\(\) to 127\.0\.0\.1:\d+ failed/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    expect(await edge.nginx.currentVersion()).toBe(version);
    expect(servedBy((await request(edge.httpPort, 'site.example.com')).body)).toBe('origin');
  });

  it('keeps the pushed data plane across a reload that adds a listen port', async () => {
    await startServing();
    const workers = await edge.nginx.workerPids();
    const extra = await freePort();
    await edge.nginx.reload(edge.render({ httpPorts: [edge.httpPort, extra] }));

    const after = await edge.nginx.workerPids();
    expect(after.length).toBe(workers.length);
    expect(after.some((pid) => workers.includes(pid))).toBe(false);
    expect(servedBy((await request(extra, 'site.example.com')).body)).toBe('origin');
    expect(servedBy((await request(edge.httpPort, 'site.example.com')).body)).toBe('origin');
    expect((await edge.admin('/config/version')).body).toMatchObject({ version: 'served' });
  });

  it('keeps a few versions on disk and points current at the newest', async () => {
    await startServing();
    for (let i = 0; i < 7; i++) await edge.nginx.activate(edge.render());
    const current = await edge.nginx.currentVersion();
    expect(current).not.toBeNull();
    expect(existsSync(path.join(edge.prefix, 'versions', current ?? ''))).toBe(true);
    expect((await readdir(path.join(edge.prefix, 'versions'))).length).toBe(6);
  });

  it('passes nginx -t for every shape of accepted settings', async () => {
    await startServing();
    const variants = [
      { http2: false },
      { workerProcesses: 'auto' as const },
      { listenAddress: '::1' },
      { listenAddress: undefined },
      { httpsPorts: [] },
      { httpPorts: [] },
      { configDictMegabytes: 8, proxyReadTimeoutSeconds: 3600, clientMaxBodyMegabytes: 1 },
    ];
    for (const variant of variants) {
      await expect(edge.nginx.activate(edge.render(variant))).resolves.toBeDefined();
    }
  });

  it('stops nginx: the master and its workers are gone', async () => {
    await startServing();
    const master = await edge.nginx.masterPid();
    const workers = await edge.nginx.workerPids();
    await edge.nginx.stop();
    expect(await edge.nginx.isRunning()).toBe(false);
    for (const pid of [master, ...workers]) expect(commandOf(pid)).not.toMatch(/^nginx/);
    await expect(request(edge.httpPort, 'site.example.com', '/', { timeoutMs: 1000 })).rejects.toThrow();
  });
});
