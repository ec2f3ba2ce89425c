import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// A console build as `vite build` leaves it: text files with brotli and gzip siblings (vite.config.ts).
const INDEX = `<!doctype html><html><head><title>Rampart</title></head><body>${'<div></div>'.repeat(200)}</body></html>`;
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rampart-console-'));
  await mkdir(path.join(dir, 'assets'));
  const files: Record<string, string> = { 'index.html': INDEX, 'assets/app-1a2b3c.js': SCRIPT };
  for (const [name, body] of Object.entries(files)) {
    await writeFile(path.join(dir, name), body);
    await writeFile(path.join(dir, `${name}.br`), brotliCompressSync(body));
    await writeFile(path.join(dir, `${name}.gz`), gzipSync(body));
  }
  // A file the build left without siblings (under 1 KiB) is sent as it is.
  await writeFile(path.join(dir, 'small.js'), 'export {};');
  t = await createTestApp({ config: { consoleDir: dir } });
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });

describe('the console build', () => {
  it('sends the brotli sibling to a browser that takes br, the gzip one to one that takes only gzip, else the file', async () => {
    const br = await get('/assets/app-1a2b3c.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const gz = await get('/assets/app-1a2b3c.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/app-1a2b3c.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('answers a console page path with index.html, compressed the same way and never cached', async () => {
    for (const url of ['/', '/user/sites', '/client/nodes?page=2']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(INDEX);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('sends a file without siblings as it is, and an API path never falls back to the page', async () => {
    const small = await get('/small.js', 'br, gzip');
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('export {};');
    const api = await get('/api/v1/no-such-route', 'br');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: expect.any(Number) });
  });
});
