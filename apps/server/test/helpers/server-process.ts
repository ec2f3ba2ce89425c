import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const serverDir = path.resolve(import.meta.dirname, '../..');

export interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** The real entry point on a free loopback port, with `env` over the test defaults. */
function spawnServer(env: Record<string, string>) {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
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
}

/**
 * Starts the real entry point (through tsx) on a free port and waits for its URL line (killed
 * when it does not come within `timeoutMs`; a first start on a loaded machine creates the
 * embedded database, which can take tens of seconds).
 */
export function start(env: Record<string, string>, timeoutMs = 150_000): Promise<Running> {
  const child = spawnServer(env);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${out}`));
    }, timeoutMs);
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

export function stop(running: Running): Promise<number | null> {
  return new Promise((resolve) => {
    running.child.removeAllListeners('exit');
    running.child.on('exit', (code) => resolve(code));
    running.child.kill('SIGTERM');
  });
}

/** Starts the real entry point and waits for it to exit on its own (a start that is refused). */
export function startRefused(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawnServer(env);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the start was not refused within 90 s:\n${output}`));
    }, 90_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Kills the process with SIGKILL (no shutdown of any kind) and waits until it is gone. */
export function killHard(running: Running): Promise<void> {
  return new Promise((resolve) => {
    running.child.removeAllListeners('exit');
    running.child.on('exit', () => resolve());
    running.child.kill('SIGKILL');
  });
}
