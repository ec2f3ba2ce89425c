// Smoke test of the built control plane, as `npm start` runs it: starts apps/server/dist/main.js
// on a free port with a fresh DATA_DIR, checks the console, the API and the OpenAPI document,
// stops it with SIGTERM, starts it again and checks that the data survived.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'rampart-smoke-'));

function start() {
  const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start in 30 s:\n${out}`)), 30_000);
    const onData = (chunk) => {
      out += chunk;
      const m = /Rampart control plane: (http:\/\/\S+?)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
}

function stop({ child }) {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

let failures = 0;
async function step(name, fn) {
  try {
    await fn();
    console.log(`  ok   ${name}`);
  } catch (error) {
    failures++;
    console.log(`  FAIL ${name}: ${error.message}`);
  }
}

try {
  const first = await start();
  let instanceId = '';
  await step('serves the console at /', async () => {
    const res = await fetch(`${first.url}/`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    const html = await res.text();
    assert.match(html, /<div id="root">/);
    const asset = /(?:src|href)="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(asset, 'index.html references a script under /assets');
    const js = await fetch(`${first.url}${asset}`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('cache-control') ?? '', /immutable/);
  });
  await step('answers console routes with the page (history fallback)', async () => {
    for (const p of ['/user/dashboard', '/client/nodeManage/nodesList', '/admin/licenses', '/no/such/page']) {
      const res = await fetch(`${first.url}${p}`);
      assert.equal(res.status, 200, p);
      assert.match(await res.text(), /<div id="root">/, p);
    }
  });
  await step('serves the OpenAPI document and the docs page', async () => {
    const doc = await (await fetch(`${first.url}/api/v1/openapi.json`)).json();
    assert.match(doc.openapi, /^3\./);
    assert.ok(doc.paths['/api/v1/health'], 'health is documented');
    const docs = await fetch(`${first.url}/api/v1/docs/static/index.html`);
    assert.equal(docs.status, 200);
  });
  await step('answers an unknown API path with 101004', async () => {
    const res = await fetch(`${first.url}/api/v1/no/such/call`);
    assert.equal(res.status, 404);
    assert.equal((await res.json()).code, 101004);
  });
  await step('reports health on the embedded database', async () => {
    const { data } = await (await fetch(`${first.url}/api/v1/health`)).json();
    assert.equal(data.database, 'pglite');
    assert.equal(data.status, 'ok');
    instanceId = data.instanceId;
  });
  await step('stops gracefully on SIGTERM', async () => assert.equal(await stop(first), 0));
  const second = await start();
  await step('keeps its data across a restart', async () => {
    const { data } = await (await fetch(`${second.url}/api/v1/health`)).json();
    assert.equal(data.instanceId, instanceId);
  });
  await stop(second);
} catch (error) {
  failures++;
  console.log(`  FAIL ${error.message}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failures === 0 ? 0 : 1);
