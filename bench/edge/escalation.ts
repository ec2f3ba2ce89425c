/**
 * bench:edge's escalation figures (lua/rampart/escalate.lua; docs/decisions.md "Floods escalated to
 * the kernel"), on a node of its own: the real control plane (built bundle) and the agent (from the
 * sources), nginx and the agent's nftables table in a network namespace, the attacker in another
 * (apps/edge/test/helpers/netns.ts; root needed). The zone keeps its default escalation (200 refused
 * requests in 10 s); the site's blacklist denies the attacker's address.
 *
 *   escalation_ms     from wrk's start (a flood of refused requests, 16 connections) to the
 *                     attacker's address in the node's kernel blocked set (polled every 10 ms).
 *   flood_kernel_pps  once escalated: TCP SYNs per second from that address that the node drops in
 *                     the kernel (bench/l4-flood/flood.c, BENCH_KERNEL_PACKETS packets, default
 *                     2,000,000): the node's interface's packets in, minus what reached TCP
 *                     (/proc/net/snmp), over the generator's seconds.
 *
 * `npx tsx bench/edge/escalation.ts` prints these two alone.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { cleanUpAgents, startAgent } from '../../apps/edge/test/helpers/agent.js';
import { freePort } from '../../apps/edge/test/helpers/net.js';
import { inNetns, namespacePair, nginxInNamespace, type Pair } from '../../apps/edge/test/helpers/netns.js';
import {
  addSiteDomain,
  type ControlPlane,
  initializeFirstNode,
  startOperatorChain,
  waitUntil,
} from '../../apps/edge/test/helpers/real-control-plane.js';

const run = promisify(execFile);
const ATTACKER = '10.244.0.2';
const HOST = 'www.shop.example';
const PACKETS = Number(process.env.BENCH_KERNEL_PACKETS ?? 2_000_000);
const log = (...args: unknown[]) => process.stderr.write(`${args.map(String).join(' ')}\n`);

/** The node namespace's packets in (its veth end) and TCP segments received. */
async function nodeCounters(pair: Pair): Promise<{ rx: number; tcp: number }> {
  const rx = await inNetns(pair.server, 'sh', '-c', 'cat /sys/class/net/rl4a*/statistics/rx_packets');
  const snmp = (await inNetns(pair.server, 'cat', '/proc/net/snmp')).split('\n').filter((l) => l.startsWith('Tcp:'));
  const names = snmp[0]?.split(/\s+/) ?? [];
  const values = snmp[1]?.split(/\s+/) ?? [];
  return { rx: Number(rx.trim()), tcp: Number(values[names.indexOf('InSegs')]) };
}

export async function escalationFigures(): Promise<{ escalation_ms: number; flood_kernel_pps: number }> {
  const work = await mkdtemp(path.join(tmpdir(), 'rampart-escalation-bench-'));
  let pair: Pair | undefined;
  let cp: ControlPlane | undefined;
  try {
    const flood = path.join(work, 'flood');
    await run('gcc', ['-O2', '-o', flood, path.join(import.meta.dirname, '..', 'l4-flood', 'flood.c')]);
    pair = await namespacePair('x', [ATTACKER], []);
    const node = pair;
    await mkdir(path.join(work, 'nginx'));
    const nginx = await nginxInNamespace(path.join(work, 'nginx'), node.server);
    const chain = await startOperatorChain({ PORT: String(await freePort()) });
    cp = chain.cp;
    const { setup } = chain;
    const agent = await startAgent({
      controlPlane: cp.url,
      joinToken: setup.joinToken,
      nginxBinary: nginx,
      listenAddress: undefined,
      l4Firewall: { nft: ['ip', 'netns', 'exec', node.server, 'nft'] },
    });
    await initializeFirstNode(setup);
    await addSiteDomain(setup, HOST, await freePort());
    const every = { get: true, post: true, head: true, put: true, delete: true, options: true, patch: true };
    await setup.customer.call('POST', `user/site/${setup.siteId}/firewall/setting/blacklists`, {
      data: [{ ips: [ATTACKER], url: '.*', methods: every, blockType: 10 }],
    });
    const url = `http://${node.serverV4}:${agent.ports.http}/`;
    const status = async () =>
      (
        await run('ip', [
          'netns',
          'exec',
          node.client,
          'curl',
          '-s',
          '-o',
          '/dev/null',
          '-w',
          '%{http_code}',
          '-m',
          '3',
          '-H',
          `Host: ${HOST}`,
          url,
        ]).catch(() => ({ stdout: '' }))
      ).stdout;
    await waitUntil(async () => (await status()) === '403', 60_000, 200);
    const blocked = async () =>
      (await inNetns(node.server, 'nft', 'list', 'set', 'inet', 'rampart', 'blocked4').catch(() => '')).includes(
        ATTACKER,
      );
    await waitUntil(async () => (await inNetns(node.server, 'nft', 'list', 'tables')).includes('rampart'), 60_000, 200);

    log('escalation: wrk floods the blacklisted address until the kernel drops it');
    const started = performance.now();
    const wrk = spawn('ip', ['netns', 'exec', node.client, 'wrk', '-t1', '-c16', '-d60s', '-H', `Host: ${HOST}`, url], {
      stdio: 'ignore',
    });
    let escalationMs: number;
    try {
      await waitUntil(blocked, 60_000, 10);
      escalationMs = Math.round(performance.now() - started);
    } finally {
      wrk.kill('SIGKILL');
    }

    log(`escalation: ${escalationMs} ms; SYN flood from the escalated address`);
    const before = await nodeCounters(node);
    const { stdout } = await run(
      'ip',
      [
        'netns',
        'exec',
        node.client,
        flood,
        'syn',
        node.serverV4,
        String(agent.ports.http),
        ATTACKER,
        '1',
        String(PACKETS),
        '30',
      ],
      { timeout: 120_000 },
    );
    const after = await nodeCounters(node);
    const sent = JSON.parse(stdout) as { sent: number; seconds: number };
    const dropped = after.rx - before.rx - (after.tcp - before.tcp);
    log(
      `sent ${sent.sent} in ${sent.seconds.toFixed(2)} s; node in ${after.rx - before.rx}, to TCP ${after.tcp - before.tcp}`,
    );
    return { escalation_ms: escalationMs, flood_kernel_pps: Math.round(dropped / sent.seconds) };
  } finally {
    await cleanUpAgents();
    await cp?.destroy();
    await pair?.remove();
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  escalationFigures()
    .then((figures) => process.stdout.write(`${JSON.stringify(figures)}\n`))
    .catch((err) => {
      log(err instanceof Error ? err.stack : String(err));
      process.exitCode = 1;
    });
}
