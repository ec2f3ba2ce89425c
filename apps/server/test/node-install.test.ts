import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  getNodeInstallRelease,
  getNodeInstallReleaseFile,
  getNodeInstallScript,
  getNodeRelease,
  type ReleaseManifest,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './helpers/auth.js';
import { nodeSend, send } from './helpers/call.js';
import { joinNode, joinToken } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Installing a node: the install script and the release of the control plane's version are served
// without authentication and without a secret, and the script, run for real against a listening
// control plane (without apt and systemd), installs an agent that runs.

const run = promisify(execFile);
const EDGE_DIR = path.resolve(import.meta.dirname, '../../edge');
const VERSION = '7.3.1';
const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

let work: string;
let releaseDir: string;
let t: TestApp;
let bare: TestApp;
let url: string;
let token: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'rampart-install-'));
  // The agent package as the control plane holds it: the real bundle (built for VERSION), lua/, scripts/.
  releaseDir = path.join(work, 'package');
  await mkdir(path.join(releaseDir, 'dist'), { recursive: true });
  await run(process.execPath, ['build.mjs', path.join(releaseDir, 'dist/rampart-edge.js')], {
    cwd: EDGE_DIR,
    env: { ...process.env, RAMPART_EDGE_VERSION: VERSION },
    timeout: 60_000,
  });
  await cp(path.join(EDGE_DIR, 'lua'), path.join(releaseDir, 'lua'), { recursive: true });
  await cp(path.join(EDGE_DIR, 'scripts'), path.join(releaseDir, 'scripts'), { recursive: true });
  t = await createTestApp({ config: { version: VERSION, agentReleaseDir: releaseDir } });
  bare = await createTestApp({ config: { version: VERSION, agentReleaseDir: null } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  token = await joinToken(t.app, await signIn(t.app, 'client'));
}, 120_000);
afterAll(async () => {
  await t.close();
  await bare.close();
  await rm(work, { recursive: true, force: true });
});

/** Runs `curl -fsSL <script> | sh -s -- <args>` as the dialog prints it; answers its status and output. */
function pipeInstall(
  scriptUrl: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; output: string }> {
  const quoted = args.map((a) => `'${a}'`).join(' ');
  const child = spawn('bash', ['-o', 'pipefail', '-c', `curl -fsSL '${scriptUrl}' | sh -s -- ${quoted}`], {
    env: { PATH: process.env.PATH, HOME: work, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

describe('the install script', () => {
  it('is served without authentication, as a shell script with setup-node.sh in it and no secret', async () => {
    const res = await send(t.app, getNodeInstallScript, undefined);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/x-shellscript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body.startsWith('#!/bin/sh\n')).toBe(true);
    // setup-node.sh is inside, the placeholder is gone, and the result is valid sh.
    const setup = await readFile(path.join(EDGE_DIR, 'scripts/setup-node.sh'), 'utf8');
    expect(res.body).toContain(setup.split('\n').find((l) => l.startsWith('PACKAGES=')));
    expect(res.body).not.toContain('@SETUP_NODE_SH@');
    const file = path.join(work, 'served-install.sh');
    await writeFile(file, res.body);
    await expect(run('sh', ['-n', file])).resolves.toBeDefined();
    // The same bytes for everybody: no token, no secret of the installation.
    expect(res.body).not.toContain(token);
    expect(res.body).not.toMatch(/jt_[A-Za-z0-9_-]{20,}/);
    expect(res.body).not.toContain('test-secret');
    const signedIn = await send(t.app, getNodeInstallScript, undefined, {
      headers: { authorization: `Bearer ${(await signIn(t.app, 'client')).accessToken}` },
    });
    expect(signedIn.body).toBe(res.body);
  });

  it('answers 202008 when the control plane has no agent package to install', async () => {
    for (const route of [getNodeInstallScript, getNodeInstallRelease]) {
      const res = await send(bare.app, route, undefined);
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe(202008);
    }
  });

  it('serves the release of its version without authentication: the signed manifest, files that verify', async () => {
    const res = await send(t.app, getNodeInstallRelease, undefined);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    const manifest: ReleaseManifest = res.json().data;
    expect(manifest.version).toBe(VERSION);
    // What a joined node gets over the signed route is the same manifest.
    const node = await joinNode(t.app, await signIn(t.app, 'client'), 'edge-install');
    expect((await nodeSend(t.app, node, getNodeRelease, undefined)).json().data).toEqual(manifest);
    expect(manifest.files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['dist/rampart-edge.js', 'lua/rampart/init.lua']),
    );
    expect(manifest.files.some((f) => f.path.startsWith('scripts/'))).toBe(false);
    for (const entry of manifest.files) {
      const file = await t.app.inject({
        method: 'GET',
        url: `/api/edge/v1/install/release/file?version=${VERSION}&path=${encodeURIComponent(entry.path)}`,
      });
      expect(file.statusCode, entry.path).toBe(200);
      expect(file.headers['content-type']).toBe('application/octet-stream');
      expect(file.rawPayload.length).toBe(entry.size);
      expect(sha(file.rawPayload), entry.path).toBe(entry.sha256);
    }
    for (const query of [
      { version: VERSION, path: 'dist/rampart-edge.js.map' },
      { version: VERSION, path: 'lua/missing.lua' },
      { version: '1.0.0', path: 'dist/rampart-edge.js' },
    ]) {
      const refused = await send(t.app, getNodeInstallReleaseFile, { query });
      expect(refused.json().code, query.path).toBe(101018);
    }
  });
});

describe('running the install script', () => {
  it('installs the release under the prefix, checked, and the installed agent runs --version', async () => {
    const prefix = path.join(work, 'opt/rampart-edge');
    const stateDir = path.join(work, 'state');
    const { code, output } = await pipeInstall(`${url}/api/edge/v1/install.sh`, [
      ...['--control-plane', `${url}/`],
      ...['--prefix', prefix, '--state-dir', stateDir, '--no-packages', '--no-service'],
    ]);
    expect(code, output).toBe(0);
    expect(output).toContain(`verified: every file's SHA-256 matches the manifest; the agent runs (${VERSION})`);
    const { stdout } = await run(process.execPath, [path.join(prefix, 'dist/rampart-edge.js'), '--version']);
    expect(stdout.trim()).toBe(VERSION);
    const manifest: ReleaseManifest = (await send(t.app, getNodeInstallRelease, undefined)).json().data;
    for (const entry of manifest.files) {
      expect(sha(await readFile(path.join(prefix, entry.path))), entry.path).toBe(entry.sha256);
    }
    expect(((await stat(path.join(prefix, 'dist/rampart-edge.js'))).mode & 0o777).toString(8)).toBe('755');
    // Nothing else was left behind: no staging directory, no unit, nothing started.
    expect((await readdir(path.dirname(prefix))).sort()).toEqual(['rampart-edge']);
    expect(await exists(stateDir)).toBe(false);

    // Run again (an upgrade in place): the prefix is replaced, still one directory.
    const again = await pipeInstall(`${url}/api/edge/v1/install.sh`, [
      ...['--control-plane', url, '--prefix', prefix, '--state-dir', stateDir, '--no-packages', '--no-service'],
    ]);
    expect(again.code, again.output).toBe(0);
    expect((await readdir(path.dirname(prefix))).sort()).toEqual(['rampart-edge']);
  });

  it('refuses a release whose file does not match the manifest, and installs nothing', async () => {
    // A control plane whose manifest names another SHA-256 for the bundle than the bytes it serves.
    const manifest: ReleaseManifest = (await send(t.app, getNodeInstallRelease, undefined)).json().data;
    const bad = {
      ...manifest,
      files: manifest.files.map((f) => (f.path === 'dist/rampart-edge.js' ? { ...f, sha256: sha('other') } : f)),
    };
    const script = (await send(t.app, getNodeInstallScript, undefined)).body;
    const server: Server = createServer(async (req, res) => {
      const target = new URL(req.url ?? '/', 'http://x');
      if (target.pathname === '/api/edge/v1/install.sh') return res.end(script);
      if (target.pathname === '/api/edge/v1/install/release') return res.end(JSON.stringify({ data: bad }));
      const file = await t.app.inject({ method: 'GET', url: req.url ?? '/' });
      res.statusCode = file.statusCode;
      res.end(file.rawPayload);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const badUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const prefix = path.join(work, 'bad/rampart-edge');
      const { code, output } = await pipeInstall(`${badUrl}/api/edge/v1/install.sh`, [
        ...['--control-plane', badUrl, '--prefix', prefix, '--state-dir', path.join(work, 'bad-state')],
        ...['--no-packages', '--no-service'],
      ]);
      expect(code).not.toBe(0);
      expect(output).toContain('the release does not match its manifest (SHA-256)');
      expect(await readdir(path.dirname(prefix))).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses to start a service without the join token, and a control plane URL it cannot put in a unit', async () => {
    const prefix = path.join(work, 'refused/rampart-edge');
    const base = ['--prefix', prefix, '--state-dir', path.join(work, 'refused-state'), '--no-packages'];
    const noToken = await pipeInstall(`${url}/api/edge/v1/install.sh`, ['--control-plane', url, ...base]);
    expect(noToken.code).not.toBe(0);
    expect(noToken.output).toContain('RAMPART_JOIN_TOKEN is missing');
    const badUrl = await pipeInstall(`${url}/api/edge/v1/install.sh`, [
      ...['--control-plane', `${url}/%h`, ...base, '--no-service'],
    ]);
    expect(badUrl.code).not.toBe(0);
    expect(badUrl.output).toContain('--control-plane: not an http(s) URL');
    expect(await exists(prefix)).toBe(false);
  });
});
