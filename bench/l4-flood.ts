/**
 * `npm run bench:l4-flood`: what the node's layer-4 protection (the agent's nftables table,
 * apps/edge/src/agent/l4/l4-firewall.ts) sustains in a flood, and what it costs, against the same
 * flood reaching a plain nginx stream port with no table — both in the same run.
 *
 * Two network namespaces the bench creates (root needed), joined by a veth pair: `node` runs a plain
 * nginx with a layer-4 port (TCP and UDP 9000, stream `return`), and the rampart table when the
 * scenario has one; `attacker` runs bench/l4-flood/flood.c (built here with gcc), which sends a
 * bounded number of IPv4 TCP SYN or UDP packets from spoofed sources of 10.247.0.0/16 through a raw
 * socket. Scenarios (each `BENCH_PACKETS` packets, default 2,000,000, or `BENCH_SECONDS` at most):
 *
 *   sink            the generator and the veth alone: the packets go to a third namespace that
 *                   drops them at its interface's netdev ingress hook, the earliest there is. Its
 *                   CPU per packet is subtracted from every other scenario's.
 *   plain_*         no table: SYNs reach the kernel's TCP listener (SYN-ACKs, SYN cookies), UDP
 *                   datagrams reach nginx, which answers each.
 *   blacklist_*     the port's blacklist holds 10.247.0.0/16: dropped in the table's prerouting
 *                   chain (priority raw, before conntrack).
 *   region_syn      the port denies a region of 100,000 CIDR blocks covering the sources.
 *   synrate_syn     no port rule; the zone's SYN rate (10/s, burst 10 per source) on a guarded
 *                   port, over 4,096 spoofed sources: a per-source meter in a dynamic set.
 *
 * CPU is counted per process, so other work on the machine does not enter it: the generator's own
 * (getrusage; with the kernel's tick-based accounting, the receive work veth does in the sender's
 * context is charged to it as system time), the kernel's ksoftirqd threads (receive work left
 * over) and nginx's master and worker, per packet; minus the sink's per packet: what the receiving
 * side spent. Drops are counted from the
 * node's interface (packets in) minus what reached TCP or UDP (/proc/net/snmp in the namespace).
 * Standard output: one JSON object; progress on standard error. Every namespace, process and the
 * table go when the bench ends, also on failure.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { L4Rules } from '@rampart/contract';
import { L4Firewall } from '../apps/edge/src/agent/l4/l4-firewall.js';

const run = promisify(execFile);
const PACKETS = Number(process.env.BENCH_PACKETS ?? 2_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const tag = String(process.pid % 100_000);
const NODE = `rfn${tag}`;
const ATTACKER = `rfa${tag}`;
const SINK = `rfk${tag}`;
const NODE_IP = '10.246.0.1';
const ATTACKER_IP = '10.246.0.2';
const SPOOF_BASE = '10.247.0.0';
const PORT = 9000;
const GUARDED = 9080;

const log = (...args: unknown[]) => process.stderr.write(`${args.map(String).join(' ')}\n`);
const ip = (...args: string[]) => run('ip', args, { timeout: 20_000 });
const inNs = (ns: string, ...command: string[]) =>
  run('ip', ['netns', 'exec', ns, ...command], { timeout: 120_000, maxBuffer: 64 << 20 });

/** utime + stime of processes, in seconds (ticks of USER_HZ = 100). */
async function processCpu(pids: readonly number[]): Promise<number> {
  let ticks = 0;
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(rest[11] ?? 0) + Number(rest[12] ?? 0);
  }
  return ticks / 100;
}

/** The kernel's softirq threads (receive work the sender's context did not finish runs there). */
async function softirqThreads(): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    const comm = await readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '');
    if (comm.startsWith('ksoftirqd/')) pids.push(Number(entry));
  }
  return pids;
}

/** nginx's master and its workers. */
async function nginxPids(dir: string): Promise<number[]> {
  const master = Number((await readFile(join(dir, 'nginx.pid'), 'utf8')).trim());
  const children = await readFile(`/proc/${master}/task/${master}/children`, 'utf8').catch(() => '');
  return [master, ...children.trim().split(/\s+/).filter(Boolean).map(Number)];
}

/** The node interface's packets in, and the packets TCP and UDP took in, inside the node namespace. */
async function nodeCounters(dev: string): Promise<{ rx: number; tcpIn: number; udpIn: number }> {
  const rx = Number((await inNs(NODE, 'cat', `/sys/class/net/${dev}/statistics/rx_packets`)).stdout.trim());
  const snmp = (await inNs(NODE, 'cat', '/proc/net/snmp')).stdout.split('\n');
  const field = (proto: string, name: string) => {
    const rows = snmp.filter((l) => l.startsWith(`${proto}:`));
    const names = rows[0]?.split(/\s+/) ?? [];
    const values = rows[1]?.split(/\s+/) ?? [];
    return Number(values[names.indexOf(name)] ?? 0);
  };
  return {
    rx,
    tcpIn: field('Tcp', 'InSegs'),
    udpIn: field('Udp', 'InDatagrams') + field('Udp', 'NoPorts') + field('Udp', 'InErrors'),
  };
}

/** 100,000 /24 blocks of 11.0.0.0/8–… plus the sources' /16: what a large region looks like to nft. */
function regionCidrs(): string[] {
  const out: string[] = ['10.247.0.0/16'];
  for (let i = 0; out.length < 100_000; i++) {
    // Every other /24 of 11.0.0.0 onwards, so the blocks do not merge into a few large ones.
    const n = 11 * 2 ** 24 + i * 2 * 256;
    out.push(`${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.0/24`);
  }
  return out;
}

const emptyPort = {
  id: 1,
  port: PORT,
  protocol: 'both' as const,
  whitelist: [],
  blacklist: [],
  regions: null,
  connectionLimit: null,
};
const zone = { guardedPorts: [GUARDED], synFlood: null, newConnections: null };
const DOCS: Record<string, L4Rules> = {
  blacklist: { zone, regions: [], ports: [{ ...emptyPort, blacklist: ['10.247.0.0/16'] }] },
  region: {
    zone,
    regions: [{ code: 'ZZ', cidrs: regionCidrs() }],
    ports: [{ ...emptyPort, regions: { mode: 'deny', codes: ['ZZ'] } }],
  },
  synrate: { zone: { ...zone, synFlood: { rate: 10, burst: 10 } }, regions: [], ports: [emptyPort] },
};

interface Scenario {
  name: string;
  proto: 'syn' | 'udp';
  doc: keyof typeof DOCS | null;
  dst: string;
  port: number;
  sources: number;
}
const SCENARIOS: Scenario[] = [
  { name: 'sink_syn', proto: 'syn', doc: null, dst: '10.248.0.1', port: PORT, sources: 65_536 },
  { name: 'sink_udp', proto: 'udp', doc: null, dst: '10.248.0.1', port: PORT, sources: 65_536 },
  { name: 'plain_syn', proto: 'syn', doc: null, dst: NODE_IP, port: PORT, sources: 65_536 },
  { name: 'blacklist_syn', proto: 'syn', doc: 'blacklist', dst: NODE_IP, port: PORT, sources: 65_536 },
  { name: 'region_syn', proto: 'syn', doc: 'region', dst: NODE_IP, port: PORT, sources: 65_536 },
  { name: 'synrate_syn', proto: 'syn', doc: 'synrate', dst: NODE_IP, port: GUARDED, sources: 4_096 },
  { name: 'plain_udp', proto: 'udp', doc: null, dst: NODE_IP, port: PORT, sources: 65_536 },
  { name: 'blacklist_udp', proto: 'udp', doc: 'blacklist', dst: NODE_IP, port: PORT, sources: 65_536 },
];

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rampart-l4-flood-'));
  const flood = join(dir, 'flood');
  await run('gcc', ['-O2', '-o', flood, join(import.meta.dirname, 'l4-flood', 'flood.c')]);
  const nodeDev = `rfa${tag}`;
  const attackerDev = `rfb${tag}`;
  let nginx: ReturnType<typeof spawn> | undefined;
  const firewall = new L4Firewall({ nft: ['ip', 'netns', 'exec', NODE, 'nft'] });
  try {
    await ip('netns', 'add', NODE);
    await ip('netns', 'add', ATTACKER);
    await ip('-n', NODE, 'link', 'add', nodeDev, 'type', 'veth', 'peer', 'name', attackerDev, 'netns', ATTACKER);
    await ip('-n', NODE, 'addr', 'add', `${NODE_IP}/24`, 'dev', nodeDev);
    await ip('-n', ATTACKER, 'addr', 'add', `${ATTACKER_IP}/24`, 'dev', attackerDev);
    for (const [ns, dev] of [
      [NODE, nodeDev],
      [ATTACKER, attackerDev],
    ] as const) {
      await ip('-n', ns, 'link', 'set', 'lo', 'up');
      await ip('-n', ns, 'link', 'set', dev, 'up');
    }
    // Answers to spoofed sources go back out of the node (as on the internet); the attacker's
    // namespace drops them (not its addresses, no forwarding).
    await ip('-n', NODE, 'route', 'add', 'default', 'via', ATTACKER_IP);
    // The sink: a third namespace that drops the packets at the earliest hook there is (netdev
    // ingress of its interface), so the sink scenarios measure the generator and the veth alone.
    await ip('netns', 'add', SINK);
    await ip('-n', ATTACKER, 'link', 'add', `rfc${tag}`, 'type', 'veth', 'peer', 'name', `rfs${tag}`, 'netns', SINK);
    await ip('-n', ATTACKER, 'addr', 'add', '10.248.0.2/16', 'dev', `rfc${tag}`);
    await ip('-n', SINK, 'addr', 'add', '10.248.0.1/16', 'dev', `rfs${tag}`);
    await ip('-n', ATTACKER, 'link', 'set', `rfc${tag}`, 'up');
    await ip('-n', SINK, 'link', 'set', `rfs${tag}`, 'up');
    await writeFile(
      join(dir, 'sink.nft'),
      `table netdev sink {\n  chain in {\n    type filter hook ingress device rfs${tag} priority 0;\n    ip daddr 10.248.0.1 drop\n  }\n}\n`,
    );
    await inNs(SINK, 'nft', '-f', join(dir, 'sink.nft'));
    await inNs(NODE, 'sysctl', '-qw', 'net.ipv4.tcp_syncookies=1');

    const conf = join(dir, 'nginx.conf');
    await writeFile(
      conf,
      [
        'load_module /usr/lib/nginx/modules/ngx_stream_module.so;',
        'worker_processes 1;',
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/error.log warn;`,
        'daemon off;',
        'events { worker_connections 4096; }',
        'stream {',
        `  server { listen ${PORT} backlog=4096; listen ${PORT} udp; return "ok"; }`,
        `  server { listen ${GUARDED} backlog=4096; return "ok"; }`,
        '}',
        '',
      ].join('\n'),
    );
    nginx = spawn('ip', ['netns', 'exec', NODE, 'nginx', '-c', conf, '-p', dir], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 1_000));
    if (nginx.exitCode !== null)
      throw new Error(`nginx did not start: ${await readFile(join(dir, 'error.log'), 'utf8')}`);

    const results: Record<string, { pps: number[]; usPerPacket: number[]; dropped: number[]; reached: number[] }> = {};
    for (let round = 1; round <= ROUNDS; round++) {
      for (const s of SCENARIOS) {
        const t0 = Date.now();
        if (s.doc) await firewall.apply(DOCS[s.doc]);
        const applyMs = Date.now() - t0;
        const before = await nodeCounters(nodeDev);
        const watched = [...(await softirqThreads()), ...(await nginxPids(dir))];
        const c0 = await processCpu(watched);
        const { stdout } = await inNs(
          ATTACKER,
          flood,
          s.proto,
          s.dst,
          String(s.port),
          SPOOF_BASE,
          String(s.sources),
          String(PACKETS),
          String(SECONDS),
        );
        // Let the receive side finish what it queued.
        await new Promise((r) => setTimeout(r, 300));
        const c1 = await processCpu(watched);
        const after = await nodeCounters(nodeDev);
        if (s.doc) await inNs(NODE, 'nft', 'delete', 'table', 'inet', 'rampart');
        const sent = JSON.parse(stdout) as { sent: number; seconds: number; cpuSeconds: number };
        const usPerPacket = ((c1 - c0 + sent.cpuSeconds) * 1e6) / sent.sent;
        const rx = after.rx - before.rx;
        const reached = s.proto === 'syn' ? after.tcpIn - before.tcpIn : after.udpIn - before.udpIn;
        const entry = results[s.name] ?? { pps: [], usPerPacket: [], dropped: [], reached: [] };
        entry.pps.push(sent.sent / sent.seconds);
        entry.usPerPacket.push(usPerPacket);
        entry.dropped.push(s.dst === NODE_IP ? (rx - reached) / sent.seconds : 0);
        entry.reached.push(reached);
        results[s.name] = entry;
        // A drop scenario where packets got through, or a plain one where they did not all arrive,
        // did not measure what it says: the run fails rather than print a figure.
        if ((s.doc === 'blacklist' || s.doc === 'region') && reached > 0)
          throw new Error(`${s.name}: ${reached} packets reached the stack through the table`);
        // (A plain flood may lose a few to the kernel's full backlog queue: not a table's drop.)
        if (s.doc === null && s.dst === NODE_IP && reached < sent.sent * 0.99)
          throw new Error(`${s.name}: ${sent.sent - reached} packets did not reach the stack without a table`);
        log(
          `round ${round} ${s.name}: sent ${sent.sent} in ${sent.seconds}s (${Math.round(sent.sent / sent.seconds)}/s), node in ${rx}, reached ${s.proto === 'syn' ? 'TCP' : 'UDP'} ${reached}, cpu ${usPerPacket.toFixed(3)} us/packet (generator ${sent.cpuSeconds.toFixed(2)} s, softirq threads and nginx ${(c1 - c0).toFixed(2)} s)${s.doc ? `, table applied in ${applyMs} ms` : ''}`,
        );
      }
    }
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      const m = Math.floor(s.length / 2);
      return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
    };
    const out: Record<string, number> = { packets: PACKETS, rounds: ROUNDS };
    const sink = { syn: median(results.sink_syn?.usPerPacket ?? []), udp: median(results.sink_udp?.usPerPacket ?? []) };
    for (const s of SCENARIOS) {
      const r = results[s.name];
      if (!r) continue;
      out[`${s.name}_sent_pps`] = Math.round(median(r.pps));
      out[`${s.name}_cpu_us_per_packet`] = Number(median(r.usPerPacket).toFixed(3));
      if (s.dst !== NODE_IP) continue;
      out[`${s.name}_receive_cpu_us_per_packet`] = Number((median(r.usPerPacket) - sink[s.proto]).toFixed(3));
      out[`${s.name}_dropped_pps`] = Math.round(median(r.dropped));
      out[`${s.name}_reached_stack`] = Math.round(median(r.reached));
    }
    const ratio = (a: string, b: string) => {
      const x = out[`${a}_receive_cpu_us_per_packet`];
      const y = out[`${b}_receive_cpu_us_per_packet`];
      return x !== undefined && y !== undefined && y > 0 ? Number((x / y).toFixed(3)) : null;
    };
    process.stdout.write(
      `${JSON.stringify({
        ...out,
        blacklist_vs_plain_syn: ratio('blacklist_syn', 'plain_syn'),
        blacklist_vs_plain_udp: ratio('blacklist_udp', 'plain_udp'),
        region_vs_plain_syn: ratio('region_syn', 'plain_syn'),
        synrate_vs_plain_syn: ratio('synrate_syn', 'plain_syn'),
      })}\n`,
    );
  } finally {
    if (nginx?.pid !== undefined && nginx.exitCode === null) {
      // TERM: the master stops its worker too (a KILLed master would leave it running).
      const exited = new Promise((r) => nginx?.once('exit', r));
      nginx.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (nginx.exitCode === null) nginx.kill('SIGKILL');
    }
    for (const ns of [NODE, ATTACKER, SINK]) await ip('netns', 'del', ns).catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  log(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
