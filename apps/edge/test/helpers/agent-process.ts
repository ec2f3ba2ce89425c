import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import type { ReleaseManifest } from '@rampart/contract';
import type { AgentPorts } from './agent.js';
import { LUA_DIR } from './edge.js';

/**
 * The agent as a node runs it: a bundle built by build.mjs (for any version) in a package directory
 * with `dist/` and `lua/` (a link to the repository's Lua package), started as its own process.
 * For the upgrade tests, which need a real restart onto another bundle.
 */

const run = promisify(execFile);
export const EDGE_DIR = path.resolve(LUA_DIR, '..');

/** Builds the agent into `<dir>/dist/rampart-edge.js` (package.json's version unless `version`) beside `<dir>/lua`. */
export async function buildAgentPackage(dir: string, version?: string): Promise<string> {
  await mkdir(path.join(dir, 'dist'), { recursive: true });
  await symlink(LUA_DIR, path.join(dir, 'lua'));
  const bundle = path.join(dir, 'dist/rampart-edge.js');
  await run(process.execPath, ['build.mjs', bundle], {
    cwd: EDGE_DIR,
    env: { ...process.env, ...(version ? { RAMPART_EDGE_VERSION: version } : {}) },
    timeout: 60_000,
  });
  return bundle;
}

async function filesBelow(dir: string, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const relative = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await filesBelow(path.join(dir, entry.name), relative)));
    else if (entry.isFile()) found.push(relative);
  }
  return found;
}

/** A built package as a release: its manifest and the bytes of each file, for a fake control plane. */
export async function releaseOf(
  dir: string,
  version: string,
): Promise<{ manifest: ReleaseManifest; files: Map<string, Buffer> }> {
  const files = new Map<string, Buffer>();
  files.set('dist/rampart-edge.js', await readFile(path.join(dir, 'dist/rampart-edge.js')));
  for (const file of await filesBelow(LUA_DIR, 'lua')) files.set(file, await readFile(path.join(EDGE_DIR, file)));
  const entries = [...files].map(([p, bytes]) => ({
    path: p,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  }));
  return { manifest: { version, files: entries }, files };
}

export interface AgentProcess {
  readonly child: ChildProcess;
  /** JSON log lines of the agent and of any agent it restarted as (they share the pipe). */
  readonly lines: Record<string, unknown>[];
  /** Waits for a log line with `event` that matches. */
  waitForLine(
    event: string,
    match?: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** Stops the agent and any agent it restarted as (SIGTERM: they stop nginx), waiting for them. */
  stop(): Promise<void>;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** Starts `bundle` with --self-restart on loopback ports, one worker, against `controlPlane`. */
export function startAgentProcess(options: {
  bundle: string;
  controlPlane: string;
  joinToken: string;
  stateDir: string;
  ports: AgentPorts;
}): AgentProcess {
  const { ports } = options;
  const child = spawn(
    process.execPath,
    [
      options.bundle,
      ...['--control-plane', options.controlPlane, '--join-token', options.joinToken, '--state-dir', options.stateDir],
      ...['--port-map', `80=${ports.http},443=${ports.https}`],
      ...['--listen-address', '127.0.0.1', '--ips', '127.0.0.1', '--hostname', 'edge-upgrade'],
      ...['--worker-processes', '1', '--self-restart', '--l4-firewall', 'off'],
      // No node exporter: a fixed port would collide with any other agent on the machine.
      ...['--metrics-port', '0'],
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    try {
      lines.push(JSON.parse(line));
    } catch {
      // Not a log line.
    }
  });
  const pids = () => [
    child.pid ?? 0,
    ...lines.filter((l) => l.event === 'agent.restarting' && typeof l.pid === 'number').map((l) => l.pid as number),
  ];
  return {
    child,
    lines,
    async waitForLine(event, match = () => true, timeoutMs = 30_000) {
      const find = () => lines.find((l) => l.event === event && match(l));
      if (!(await until(() => find() !== undefined, timeoutMs))) {
        throw new Error(`no ${event} within ${timeoutMs} ms; last: ${JSON.stringify(lines.slice(-3))}`);
      }
      return find() as Record<string, unknown>;
    },
    async stop() {
      const running = pids().filter((pid) => pid > 0 && alive(pid));
      for (const pid of running) process.kill(pid, 'SIGTERM');
      if (!(await until(() => running.every((pid) => !alive(pid)), 20_000))) {
        for (const pid of running) if (alive(pid)) process.kill(pid, 'SIGKILL');
      }
      // An agent killed hard leaves nginx running: stop it too.
      const nginx = Number(
        (await readFile(path.join(options.stateDir, 'nginx/logs/nginx.pid'), 'utf8').catch(() => '')).trim(),
      );
      if (nginx > 0 && alive(nginx)) process.kill(nginx, 'SIGQUIT');
    },
  };
}
