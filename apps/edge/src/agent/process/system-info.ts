import { execFile } from 'node:child_process';
import { statfs } from 'node:fs/promises';
import { cpus, freemem, loadavg, totalmem, uptime } from 'node:os';
import { promisify } from 'node:util';
import type { NodeSystem } from '@rampart/contract';
import { AGENT_VERSION } from '../version.js';

const run = promisify(execFile);

/** The version `nginx -v` prints (`nginx version: nginx/1.22.1`), '' when it cannot be read. */
export async function nginxVersion(binary: string): Promise<string> {
  try {
    const { stdout, stderr } = await run(binary, ['-v'], { timeout: 5000 });
    const version = /nginx\/([0-9A-Za-z.+-]{1,48})/.exec(`${stderr}${stdout}`)?.[1];
    return version ?? '';
  } catch {
    return '';
  }
}

interface CpuTimes {
  idle: number;
  total: number;
}

function cpuTimes(): CpuTimes {
  let idle = 0;
  let total = 0;
  for (const cpu of cpus()) {
    const t = cpu.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  return { idle, total };
}

/**
 * What the agent reports about its machine with each status report (the contract's
 * nodeSystemSchema). CPU usage is the busy share of all CPUs since the previous sample (since boot
 * for the first one); disk is the file system holding the state directory.
 */
export class SystemSampler {
  private previous: CpuTimes = { idle: 0, total: 0 };
  private nginx: string | null = null;

  constructor(
    private readonly stateDir: string,
    private readonly nginxBinary: string,
  ) {}

  /** Reads `nginx -v` again at the next sample (after nginx was restarted or replaced). */
  forgetNginxVersion(): void {
    this.nginx = null;
  }

  async sample(): Promise<NodeSystem> {
    const now = cpuTimes();
    const idle = now.idle - this.previous.idle;
    const total = now.total - this.previous.total;
    this.previous = now;
    const usage = total > 0 ? Math.min(100, Math.max(0, (1 - idle / total) * 100)) : 0;
    const fs = await statfs(this.stateDir);
    this.nginx ??= await nginxVersion(this.nginxBinary);
    const [one = 0, five = 0, fifteen = 0] = loadavg();
    const memoryTotal = totalmem();
    return {
      cpuCount: cpus().length,
      cpuUsage: Math.round(usage * 10) / 10,
      memoryTotalBytes: memoryTotal,
      memoryUsedBytes: Math.max(0, memoryTotal - freemem()),
      diskTotalBytes: fs.blocks * fs.bsize,
      diskUsedBytes: (fs.blocks - fs.bfree) * fs.bsize,
      loadAverage: [one, five, fifteen].map((n) => Math.round(n * 100) / 100) as [number, number, number],
      uptimeSeconds: Math.floor(uptime()),
      nginxVersion: this.nginx,
      agentVersion: AGENT_VERSION,
    };
  }
}
