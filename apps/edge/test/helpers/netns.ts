import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

// Network namespaces for the layer-4 (nftables) tests: a server namespace and a client namespace
// joined by one veth pair, the client end holding several source addresses. Needs root. Every
// name carries the test process's id, and `remove` deletes the namespaces (their veth ends and
// nftables tables go with them) and stops the processes started in them, by pid.

const run = promisify(execFile);

export async function ip(...args: string[]): Promise<string> {
  return (await run('ip', args, { timeout: 10_000 })).stdout;
}

/** Runs a command inside namespace `ns`; answers its stdout. */
export async function inNetns(ns: string, ...command: string[]): Promise<string> {
  return (await run('ip', ['netns', 'exec', ns, ...command], { timeout: 60_000 })).stdout;
}

export interface Pair {
  server: string;
  client: string;
  serverV4: string;
  serverV6: string;
  /** Stops the processes started and deletes both namespaces (and with them the veth pair). */
  remove: () => Promise<void>;
  started: ChildProcessWithoutNullStreams[];
}

/** Two namespaces joined by a veth pair; the client end holds `clientV4`/`clientV6` (10.244.0.x, fd00:244::x). */
export async function namespacePair(tag: string, clientV4: string[], clientV6: string[]): Promise<Pair> {
  const id = `${tag}${process.pid % 100_000}`;
  const server = `rl4s${id}`;
  const client = `rl4c${id}`;
  const pair: Pair = {
    server,
    client,
    serverV4: '10.244.0.1',
    serverV6: 'fd00:244::1',
    started: [],
    remove: async () => {
      for (const child of pair.started) {
        if (child.exitCode === null && child.pid !== undefined) child.kill('SIGKILL');
      }
      for (const ns of [server, client]) await ip('netns', 'del', ns).catch(() => {});
    },
  };
  try {
    await ip('netns', 'add', server);
    await ip('netns', 'add', client);
    await ip('-n', server, 'link', 'add', `rl4a${id}`, 'type', 'veth', 'peer', 'name', `rl4b${id}`, 'netns', client);
    await ip('-n', server, 'addr', 'add', '10.244.0.1/24', 'dev', `rl4a${id}`);
    await ip('-n', server, 'addr', 'add', 'fd00:244::1/64', 'dev', `rl4a${id}`, 'nodad');
    for (const a of clientV4) await ip('-n', client, 'addr', 'add', `${a}/24`, 'dev', `rl4b${id}`);
    for (const a of clientV6) await ip('-n', client, 'addr', 'add', `${a}/64`, 'dev', `rl4b${id}`, 'nodad');
    for (const [ns, dev] of [
      [server, `rl4a${id}`],
      [client, `rl4b${id}`],
    ] as const) {
      await ip('-n', ns, 'link', 'set', 'lo', 'up');
      await ip('-n', ns, 'link', 'set', dev, 'up');
    }
    await knowNeighbours(
      { ns: server, dev: `rl4a${id}`, v6: [pair.serverV6] },
      { ns: client, dev: `rl4b${id}`, v6: clientV6 },
    );
  } catch (err) {
    await pair.remove();
    throw err;
  }
  return pair;
}

interface End {
  ns: string;
  dev: string;
  /** Its global IPv6 addresses (its link-local one is read). */
  v6: string[];
}

/**
 * IPv6 neighbour discovery runs on the kernel's own timers: a neighbour used is probed 5 s later
 * (delay_first_probe_time), and that ICMPv6 reaches the layer-4 table as node traffic no test sent,
 * landing in whichever reading comes next. Each end knows the other's IPv6 addresses for good
 * (permanent entries: never solicited, never probed), so the link carries only what a test sends.
 * ARP does not reach an inet table: IPv4 is left to it.
 */
async function knowNeighbours(a: End, b: End): Promise<void> {
  const mac = async (end: End) =>
    (JSON.parse(await ip('-j', '-n', end.ns, 'link', 'show', 'dev', end.dev)) as { address: string }[])[0]?.address;
  const linkLocal = async (end: End) =>
    (
      JSON.parse(await ip('-j', '-6', '-n', end.ns, 'addr', 'show', 'dev', end.dev, 'scope', 'link')) as {
        addr_info: { local?: string }[];
      }[]
    ).flatMap((link) => link.addr_info.flatMap((info) => (info.local ? [info.local] : [])));
  for (const [self, other] of [
    [a, b],
    [b, a],
  ] as const) {
    const lladdr = await mac(other);
    if (lladdr === undefined) throw new Error(`no link address on ${other.dev}`);
    for (const address of [...other.v6, ...(await linkLocal(other))])
      await ip('-n', self.ns, 'neigh', 'replace', address, 'lladdr', lladdr, 'dev', self.dev, 'nud', 'permanent');
  }
}

// A TCP server: greets each connection with `hi` and prints `conn <address>` on stdout.
const SERVER = `
const net = require('node:net');
const server = net.createServer((s) => {
  process.stdout.write('conn ' + s.remoteAddress + '\\n');
  s.on('error', () => {});
  s.write('hi');
});
server.listen(Number(process.argv[1]), '::', () => process.stdout.write('listening\\n'));
`;

// A client taking JSON commands on stdin, one answer line each:
//   {id, op: 'connect', from, host, port, timeoutMs, hold} → {id, ok, error}  (ok: the greeting came)
//   {id, op: 'closeAll'} → {id, ok: true}
const CLIENT = `
const net = require('node:net');
const readline = require('node:readline');
const held = [];
const answer = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const c = JSON.parse(line);
  if (c.op === 'closeAll') {
    for (const s of held.splice(0)) s.destroy();
    return answer({ id: c.id, ok: true });
  }
  const s = net.connect({ host: c.host, port: c.port, localAddress: c.from });
  let done = false;
  const finish = (ok, error) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    if (ok && c.hold) held.push(s); else s.destroy();
    answer({ id: c.id, ok, error });
  };
  const timer = setTimeout(() => finish(false, 'timeout'), c.timeoutMs);
  s.once('data', () => finish(true, ''));
  s.on('error', (e) => finish(false, e.code || e.message));
  s.on('close', () => finish(false, 'closed'));
});
process.stdin.on('end', () => process.exit(0));
`;

/** Starts the TCP server in `pair.server` on `port`; `seen` lists the addresses it accepted. */
export async function startServer(pair: Pair, port: number): Promise<{ seen: string[] }> {
  const child = spawn('ip', ['netns', 'exec', pair.server, process.execPath, '-e', SERVER, String(port)]);
  pair.started.push(child);
  const seen: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start')), 15_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'listening') {
        clearTimeout(timer);
        resolve();
      } else if (line.startsWith('conn ')) seen.push(line.slice(5).replace(/^::ffff:/, ''));
    });
    child.once('exit', () => reject(new Error('server exited')));
  });
  return { seen };
}

export interface Client {
  /** Connects from `from` to the server; ok once the greeting came within `timeoutMs`. */
  connect: (from: string, port: number, options?: { hold?: boolean; timeoutMs?: number }) => Promise<boolean>;
  closeAll: () => Promise<void>;
}

/** Starts the command-driven client in `pair.client`. */
export async function startClient(pair: Pair): Promise<Client> {
  const child = spawn('ip', ['netns', 'exec', pair.client, process.execPath, '-e', CLIENT]);
  pair.started.push(child);
  const waiting = new Map<number, (answer: { ok: boolean; error: string }) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const answer = JSON.parse(line) as { id: number; ok: boolean; error: string };
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  let next = 1;
  const ask = (command: Record<string, unknown>) =>
    new Promise<{ ok: boolean; error: string }>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
    });
  return {
    connect: async (from, port, options = {}) => {
      const host = from.includes(':') ? pair.serverV6 : pair.serverV4;
      const answer = await ask({
        op: 'connect',
        from,
        host,
        port,
        timeoutMs: options.timeoutMs ?? 800,
        hold: options.hold ?? false,
      });
      return answer.ok;
    },
    closeAll: async () => {
      await ask({ op: 'closeAll' });
    },
  };
}

/**
 * A script in `dir` that runs Debian's nginx inside namespace `ns` (an agent's `nginxBinary`: its
 * nginx then listens, and its layer-4 table is written, where the test's clients connect to).
 */
export async function nginxInNamespace(dir: string, ns: string): Promise<string> {
  const file = path.join(dir, 'nginx-in-netns');
  await writeFile(file, `#!/bin/sh\nexec ip netns exec ${ns} /usr/sbin/nginx "$@"\n`);
  await chmod(file, 0o755);
  return file;
}
