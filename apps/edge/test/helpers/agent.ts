import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EdgeSnapshot } from '@rampart/contract';
import { Agent, type AgentOptions } from '../../src/agent/agent.js';
import type { EventWorkerCommand } from '../../src/agent/events/event-process.js';
import type { LogEntry } from '../../src/agent/log.js';
import { LUA_DIR } from './edge.js';
import type { FakeControlPlane } from './fake-control-plane.js';
import { freePort } from './net.js';

/**
 * The request events' process of an agent running from the sources: main.ts through tsx's loader
 * (the built agent starts its own bundle).
 */
export const SOURCE_EVENT_WORKER: EventWorkerCommand = {
  script: fileURLToPath(new URL('../../src/agent/main.ts', import.meta.url)),
  execArgv: ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href],
};

/** Local ports an agent maps the snapshot's 80 and 443 to. */
export interface AgentPorts {
  http: number;
  https: number;
}

export interface TestAgent {
  agent: Agent;
  stateDir: string;
  ports: AgentPorts;
  logs: LogEntry[];
  /** The first log entry (already written or to come) with `event` that matches. */
  waitForLog(event: string, match?: (entry: LogEntry) => boolean, timeoutMs?: number): Promise<LogEntry>;
  stop(): Promise<void>;
}

const started = new Set<TestAgent>();
const stateDirs = new Set<string>();

export async function agentPorts(): Promise<AgentPorts> {
  return { http: await freePort(), https: await freePort() };
}

export async function makeStateDir(): Promise<string> {
  const dir = await mkdtemp('/tmp/rampart-agent-');
  stateDirs.add(dir);
  return dir;
}

export type TestAgentOptions = {
  controlPlane: string | null;
  joinToken?: string | null;
  stateDir?: string;
  ports?: AgentPorts;
} & Partial<Omit<AgentOptions, 'controlPlane' | 'joinToken' | 'stateDir'>>;

/**
 * Starts an agent in this process on loopback: the snapshot's ports 80 and 443 mapped to free
 * ports, one nginx worker, quick supervision and backoff so failures show within a test.
 */
export async function startAgent(options: TestAgentOptions): Promise<TestAgent> {
  const { controlPlane, joinToken = null, stateDir: givenDir, ports: givenPorts, ...rest } = options;
  const stateDir = givenDir ?? (await makeStateDir());
  const ports = givenPorts ?? (await agentPorts());
  const logs: LogEntry[] = [];
  let listeners: ((entry: LogEntry) => void)[] = [];
  const agent = new Agent({
    controlPlane,
    joinToken,
    stateDir,
    nginxBinary: '/usr/sbin/nginx',
    luaDir: LUA_DIR,
    portMap: new Map([
      [80, ports.http],
      [443, ports.https],
    ]),
    listenAddress: '127.0.0.1',
    hostname: 'edge-test',
    ips: ['127.0.0.1'],
    workerProcesses: 1,
    superviseMs: 100,
    backoffMinMs: 100,
    backoffMaxMs: 1000,
    eventWorker: SOURCE_EVENT_WORKER,
    // Tests that want the kernel firewall give their own (in a network namespace): never the host's.
    l4Firewall: 'off',
    logger: (level, event, fields = {}) => {
      const entry: LogEntry = { time: new Date().toISOString(), level, event, ...fields };
      logs.push(entry);
      if (process.env.RAMPART_TEST_AGENT_LOG) console.info(JSON.stringify(entry));
      for (const listener of listeners) listener(entry);
    },
    ...rest,
  });
  const handle: TestAgent = {
    agent,
    stateDir,
    ports,
    logs,
    waitForLog(event, match = () => true, timeoutMs = 15_000) {
      const seen = logs.find((e) => e.event === event && match(e));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const listener = (entry: LogEntry) => {
          if (entry.event !== event || !match(entry)) return;
          clearTimeout(timer);
          listeners = listeners.filter((l) => l !== listener);
          resolve(entry);
        };
        const timer = setTimeout(() => {
          listeners = listeners.filter((l) => l !== listener);
          reject(new Error(`no ${event} log within ${timeoutMs} ms; logs: ${JSON.stringify(logs.slice(-5))}`));
        }, timeoutMs);
        listeners.push(listener);
      });
    },
    async stop() {
      started.delete(handle);
      await agent.stop();
    },
  };
  started.add(handle);
  try {
    await agent.start();
  } catch (err) {
    await handle.stop();
    throw err;
  }
  return handle;
}

/** Stops every agent still running (and its nginx) and removes the state directories. */
export async function cleanUpAgents(): Promise<void> {
  for (const handle of [...started]) await handle.stop().catch(() => undefined);
  for (const dir of [...stateDirs]) {
    stateDirs.delete(dir);
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Gives `snapshot` to the fake control plane `cp` and starts an agent that joins it; resolves once
 * the agent reported the snapshot applied.
 */
export async function startServingAgent(
  cp: FakeControlPlane,
  snapshot: EdgeSnapshot,
  options: Omit<TestAgentOptions, 'controlPlane' | 'joinToken'> = {},
): Promise<TestAgent> {
  cp.setSnapshot(snapshot);
  const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken, ...options });
  await cp.waitForReport((r) => r.appliedVersion === snapshot.version);
  return edge;
}
