import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, open, readdir, readFile, readlink, rename, rm, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { prefixLayout } from './render.js';

const run = promisify(execFile);

/**
 * nginx under the agent, with its own prefix:
 *
 *   <prefix>/versions/<id>/nginx.conf   every rendered config, kept (the newest few)
 *   <prefix>/current -> versions/<id>   the active one; nginx runs with -c <prefix>/current/nginx.conf
 *   <prefix>/logs, <prefix>/temp         pid file, logs, temp paths (see render.ts prefixLayout)
 *
 * Apply cycle: write a new version (fsync) → `nginx -t` on it → switch `current` by renaming a temp
 * symlink over it → SIGHUP the master (what `nginx -s reload` sends) → wait for new workers, or for
 * an [emerg] in the error log, in which case `current` is switched back. nginx runs as a daemon
 * (nginx's default `daemon on`): the master is not our child, so it keeps serving the last good
 * config when the agent exits or restarts.
 *
 * The prefix must be readable by `nobody`: with a root master and no `user` directive the workers
 * run as nobody. nginx chowns its temp directories to that user itself.
 */

export interface NginxProcessOptions {
  prefix: string;
  errorLogPath: string;
  nginxBinary?: string;
  /** Versions kept on disk besides the active one. */
  keepVersions?: number;
}

/** `nginx -t` (or the master on reload or start) refused a config; `emerg` holds its [emerg] lines. */
export class NginxConfigError extends Error {
  override readonly name = 'NginxConfigError';
  constructor(
    message: string,
    readonly emerg: string[],
    readonly output: string,
  ) {
    super(emerg.length > 0 ? `${message}: ${emerg.join('; ')}` : message);
  }
}

function emergLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.includes('[emerg]'))
    .map((line) => line.trim());
}

/**
 * Adds the text of the rendered line an [emerg] points at ("in /…/nginx.conf:29"), so the error the
 * node reports names the setting ("gzip_comp_level 99;") rather than a line of a file the operator
 * never sees.
 */
function withConfLines(lines: string[], confPath: string, conf: string): string[] {
  const confLines = conf.split('\n');
  return lines.map((line) => {
    const at = / in (\S+):(\d+)$/.exec(line);
    if (!at || at[1] !== confPath) return line;
    const text = confLines[Number(at[2]) - 1]?.trim();
    return text ? `${line} (${text})` : line;
  });
}

let versionCounter = 0;

export class NginxProcess {
  readonly prefix: string;
  readonly errorLogPath: string;
  readonly nginxBinary: string;
  readonly keepVersions: number;

  constructor(options: NginxProcessOptions) {
    this.prefix = options.prefix;
    this.errorLogPath = options.errorLogPath;
    this.nginxBinary = options.nginxBinary ?? '/usr/sbin/nginx';
    this.keepVersions = options.keepVersions ?? 5;
  }

  get currentLink(): string {
    return path.join(this.prefix, 'current');
  }

  get currentConfPath(): string {
    return path.join(this.currentLink, 'nginx.conf');
  }

  private get versionsDir(): string {
    return path.join(this.prefix, 'versions');
  }

  /** Creates the directories nginx will not create itself (it makes only the last path component). */
  async prepare(): Promise<void> {
    const layout = prefixLayout(this.prefix);
    for (const dir of [this.prefix, this.versionsDir, layout.logsDir, layout.tempDir]) {
      await mkdir(dir, { recursive: true, mode: 0o755 });
    }
  }

  /** The active version's directory name, or null before the first activation. */
  async currentVersion(): Promise<string | null> {
    try {
      return path.basename(await readlink(this.currentLink));
    } catch {
      return null;
    }
  }

  /** Runs `nginx -t` on a config file; throws NginxConfigError with the [emerg] lines on failure. */
  async test(confPath: string): Promise<void> {
    try {
      await run(this.nginxBinary, ['-t', '-q', '-p', this.prefix, '-c', confPath, '-e', 'stderr']);
    } catch (err) {
      const output = String((err as { stderr?: string }).stderr ?? err);
      const conf = await readFile(confPath, 'utf8').catch(() => '');
      throw new NginxConfigError(
        'nginx -t refused the config',
        withConfLines(emergLines(output), confPath, conf),
        output,
      );
    }
  }

  /**
   * Writes `conf` as a new version, tests it and makes it `current`. On a failed test the new
   * version is removed and `current` is untouched. Returns the new and the previous version.
   */
  async activate(conf: string): Promise<{ version: string; previous: string | null }> {
    await this.prepare();
    const version = `${new Date().toISOString().replace(/[-:.TZ]/g, '')}-${process.pid}-${++versionCounter}`;
    const dir = path.join(this.versionsDir, version);
    await mkdir(dir, { mode: 0o755 });
    const confPath = path.join(dir, 'nginx.conf');
    const file = await open(confPath, 'wx', 0o644);
    try {
      await file.writeFile(conf);
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await this.test(confPath);
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    const previous = await this.currentVersion();
    await this.switchTo(version);
    await this.prune();
    return { version, previous };
  }

  /** Points `current` at `version` atomically: a temp symlink renamed over the old one. */
  async switchTo(version: string): Promise<void> {
    const temp = path.join(this.prefix, `.current-${process.pid}-${++versionCounter}`);
    await symlink(path.join('versions', version), temp);
    await rename(temp, this.currentLink);
    const dir = await open(this.prefix, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }

  private async prune(): Promise<void> {
    const current = await this.currentVersion();
    const versions = (await readdir(this.versionsDir)).sort();
    const old = versions.filter((v) => v !== current).slice(0, -this.keepVersions);
    for (const v of old) await rm(path.join(this.versionsDir, v), { recursive: true, force: true });
  }

  /** The master's pid from the pid file, if that process is an nginx master. */
  async masterPid(): Promise<number | null> {
    let pid: number;
    try {
      pid = Number.parseInt(await readFile(prefixLayout(this.prefix).pidFile, 'utf8'), 10);
    } catch {
      return null;
    }
    if (!Number.isInteger(pid) || pid <= 0) return null;
    try {
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
      return cmdline.startsWith('nginx: master process') ? pid : null;
    } catch {
      return null;
    }
  }

  async isRunning(): Promise<boolean> {
    return (await this.masterPid()) !== null;
  }

  /** Pids of the master's live workers (not those still shutting down after a reload). */
  async workerPids(): Promise<number[]> {
    return this.childPids((args) => args === 'nginx: worker process');
  }

  /**
   * Pids of the processes the master started: its workers and, with a proxy cache, the cache
   * manager and loader. They all hold the listening sockets, so none may outlive a dead master.
   */
  async childPids(match: (args: string) => boolean = (args) => args.startsWith('nginx: ')): Promise<number[]> {
    const master = await this.masterPid();
    if (master === null) return [];
    let stdout: string;
    try {
      ({ stdout } = await run('ps', ['--ppid', String(master), '-o', 'pid=,args=']));
    } catch {
      return []; // ps exits 1 when there is no child
    }
    return stdout
      .split('\n')
      .map((line) => line.trim().match(/^(\d+)\s+(.*)$/))
      .filter((m): m is RegExpMatchArray => m !== null && match(m[2] ?? ''))
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
  }

  private async errorLogSize(): Promise<number> {
    try {
      return (await stat(this.errorLogPath)).size;
    } catch {
      return 0;
    }
  }

  private async errorLogSince(offset: number): Promise<string> {
    try {
      const file = await open(this.errorLogPath, 'r');
      try {
        const { size } = await file.stat();
        const buffer = Buffer.alloc(Math.max(0, size - offset));
        await file.read(buffer, 0, buffer.length, offset);
        return buffer.toString('utf8');
      } finally {
        await file.close();
      }
    } catch {
      return '';
    }
  }

  /** Activates `conf` (when given) and starts nginx as a daemon; resolves once workers are up. */
  async start(conf?: string, timeoutMs = 10_000): Promise<void> {
    if (conf !== undefined) await this.activate(conf);
    if (await this.isRunning()) throw new Error(`nginx already runs with prefix ${this.prefix}`);
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(this.nginxBinary, ['-p', this.prefix, '-c', this.currentConfPath, '-e', this.errorLogPath], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      child.on('error', reject);
      child.on('exit', (code) => {
        if (code === 0) resolve(stderr);
        else reject(new NginxConfigError(`nginx exited with ${code} at start`, emergLines(stderr), stderr));
      });
    });
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await this.workerPids()).length > 0) return;
      await sleep(25);
    }
    throw new NginxConfigError('nginx did not start its workers', emergLines(output), output);
  }

  /**
   * Applies a new zone-level config without dropping the running one: activate (nginx -t, switch),
   * SIGHUP, then wait for fresh workers. `nginx -s reload` would exit 0 even when the master rejects
   * the new config (a port in use), so the error log is watched too; on rejection `current` goes
   * back to the previous version and NginxConfigError is thrown.
   */
  async reload(conf: string, timeoutMs = 15_000): Promise<void> {
    const master = await this.masterPid();
    if (master === null) throw new Error('nginx is not running');
    const { previous } = await this.activate(conf);
    const before = new Set(await this.workerPids());
    const offset = await this.errorLogSize();
    process.kill(master, 'SIGHUP');
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      await sleep(25);
      const logged = await this.errorLogSince(offset);
      const emerg = emergLines(logged);
      if (emerg.length > 0) {
        if (previous !== null) await this.switchTo(previous);
        throw new NginxConfigError('nginx rejected the reload', emerg, logged);
      }
      const workers = await this.workerPids();
      if (workers.length > 0 && workers.every((pid) => !before.has(pid))) return;
    }
    throw new Error('nginx did not start new workers after the reload signal');
  }

  /**
   * Has nginx reopen its log files (SIGUSR1, what `nginx -s reopen` sends) after they were renamed,
   * and waits until each of `files` exists again. False when nginx is not running.
   */
  async reopenLogs(files: readonly string[], timeoutMs = 5000): Promise<boolean> {
    const master = await this.masterPid();
    if (master === null) return false;
    process.kill(master, 'SIGUSR1');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const present = await Promise.all(
        files.map((f) =>
          stat(f).then(
            () => true,
            () => false,
          ),
        ),
      );
      if (present.every(Boolean)) return true;
      if (Date.now() > deadline)
        throw new Error(`nginx did not reopen ${files.filter((_, i) => !present[i]).join(', ')}`);
      await sleep(25);
    }
  }

  /** Graceful stop (SIGQUIT: workers finish their requests), then SIGKILL after the timeout. */
  async stop(timeoutMs = 10_000): Promise<void> {
    const master = await this.masterPid();
    if (master === null) return;
    const children = await this.childPids();
    process.kill(master, 'SIGQUIT');
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!alive(master)) return;
      await sleep(25);
    }
    // Children do not die with their master: kill the ones this master started, then the master.
    for (const pid of [...children, ...(await this.childPids())]) kill(pid);
    kill(master);
  }
}

/** Whether `pid` runs; a zombie (exited, not yet reaped by a non-reaping pid 1) counts as gone. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
