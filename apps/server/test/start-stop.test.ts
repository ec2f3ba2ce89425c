import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from './helpers/test-db.js';

type Health = { data: { database: string; instanceId: string } };

const serverDir = path.resolve(import.meta.dirname, '..');

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts the real entry point (through tsx) on a free port and waits for its URL line. */
function start(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      CONSOLE_DIR: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Rampart control plane: (http:\/\/[^/\s]+)\//.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: m[1], output: () => out });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

function stop(running: Running): Promise<number | null> {
  return new Promise((resolve) => {
    running.child.removeAllListeners('exit');
    running.child.on('exit', (code) => resolve(code));
    running.child.kill('SIGTERM');
  });
}

let dataDir: string;
let pg: TestDatabase | null = null;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'rampart-data-'));
  if (TEST_DB_KIND === 'postgres') pg = await createTestDatabase();
});
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await pg?.drop();
});

describe(`the control plane process on ${TEST_DB_KIND}`, () => {
  it('keeps its data across a graceful stop and a new start', async () => {
    const env = { DATA_DIR: dataDir, ...(pg?.url ? { DATABASE_URL: pg.url } : {}) };
    await pg?.database.close();
    const first = await start(env);
    const a = (await (await fetch(`${first.url}/api/v1/health`)).json()) as Health;
    expect(await stop(first)).toBe(0);

    const second = await start(env);
    const b = (await (await fetch(`${second.url}/api/v1/health`)).json()) as Health;
    expect(await stop(second)).toBe(0);

    expect(a.data.database).toBe(TEST_DB_KIND);
    expect(b.data.instanceId).toBe(a.data.instanceId);
    const secret = statSync(path.join(dataDir, 'secret.key'));
    expect(secret.mode & 0o777).toBe(0o600);
  }, 90_000);
});
