import path from 'node:path';
import type { EdgeCommand, EdgeSnapshot } from '@rampart/contract';
import type { AdminEndpoint } from '../../data-plane/admin-client.js';
import type { NginxProcess } from '../../nginx/nginx-process.js';
import { describeError } from '../errors.js';
import { unblockAddresses } from '../events/block-list.js';
import type { Logger } from '../log.js';
import type { NodeClient } from '../node-api/node-client.js';
import type { SnapshotApplier } from '../plane/apply.js';
import type { StateDir } from '../process/state.js';
import type { SystemSampler } from '../process/system-info.js';
import { AGENT_VERSION } from '../version.js';
import { preheatUrls, purgeUrls } from './cache-commands.js';
import type { CommandOutcome } from './command-loop.js';
import { shiftLogs } from './log-rotate.js';
import { installRelease } from './upgrade.js';

/** What the operator's commands need from the agent. */
export interface CommandHost {
  readonly nginx: NginxProcess;
  readonly state: StateDir;
  readonly applier: SnapshotApplier;
  readonly system: SystemSampler;
  readonly log: Logger;
  readonly signal: AbortSignal;
  readonly stateDir: string;
  readonly admin: AdminEndpoint;
  /** The control plane client (throws before the agent started). */
  client(): NodeClient;
  /** The snapshot nginx serves now. */
  applied(): EdgeSnapshot | null;
  /** The current snapshot error ('' when none). */
  snapshotError(): string;
  /** Applies a snapshot from the control plane as the poll does (throws when it failed to apply). */
  takeSnapshot(snapshot: EdgeSnapshot): Promise<void>;
  /** Runs a task under the apply lock. */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  /** Forgets the applied snapshot and data plane (after a reset dropped every stored one). */
  forgetApplied(): Promise<void>;
  /** The node's cache epoch nginx serves now (0 before any). */
  cacheEpoch(): number;
  /**
   * Fetches the data plane now and applies it (the plane's poll answer without waiting, when the
   * node takes its data plane as entries; nothing otherwise: the snapshot carries it).
   */
  refreshPlane(): Promise<void>;
  /** nginx serves again after a reboot: clears the nginx error. */
  nginxRecovered(): void;
  reportStatus(): void;
  /** Lifts these addresses' blocks in the kernel's blocked set (nothing without a firewall). */
  kernelUnblock(ips: readonly string[]): Promise<void>;
  /** Drops these addresses in the kernel for their seconds (rejects without a firewall). */
  kernelBlock(entries: readonly { ip: string; seconds: number }[]): Promise<void>;
  /** An upgrade switched releases to `version`: restart onto it once the result is reported. */
  switchedTo(version: string): void;
}

/** Runs one operator command (see command-loop.ts); answers the result message, throws on failure. */
export function executeCommand(host: CommandHost, command: EdgeCommand): Promise<CommandOutcome> {
  switch (command.type) {
    case 'clearCache':
      return clearCache(host, command.payload.epoch);
    case 'purgeUrls':
      return purge(host, command.payload.urls);
    case 'preheat':
      return preheat(host, command.payload.urls);
    case 'reboot':
      return reboot(host);
    case 'reset':
      return reset(host);
    case 'logRotate':
      return rotateLogs(host);
    case 'upgrade':
      return upgrade(host, command.id, command.payload.version);
    case 'unblock':
      return unblock(host, command.payload.entries);
    case 'block':
      return block(host, command.payload.entries);
  }
}

/**
 * Block: a flood another node serving the same site escalated (routes/firewall-l4.ts
 * l4EscalationSchema) is dropped here too, in the kernel, for the seconds it has left there.
 */
async function block(host: CommandHost, entries: { siteId: number; ip: string; seconds: number }[]): Promise<string> {
  const longest = new Map<string, number>();
  for (const { ip, seconds } of entries) longest.set(ip, Math.max(seconds, longest.get(ip) ?? 0));
  await host.kernelBlock([...longest].map(([ip, seconds]) => ({ ip, seconds })));
  return `${longest.size} address(es) dropped in the kernel`;
}

/**
 * Unblock: removes these addresses from the sites' block lists in nginx (rampart.blocklist, through
 * the admin endpoint). An address this node does not hold (expired, or blocked on another node) is
 * no failure: it is not blocked here either way.
 */
async function unblock(host: CommandHost, entries: { siteId: number; ip: string }[]): Promise<string> {
  const removed = await unblockAddresses(host.admin, entries);
  // A block pushed down to the kernel (the zone's kernel blocks) drops the address on every web
  // port: lifting it for one site lifts it there too; the sites that still block it do in nginx.
  await host.kernelUnblock([...new Set(entries.map((e) => e.ip))]);
  return `${removed} of ${entries.length} block(s) removed`;
}

/**
 * Clear the whole cache: the control plane raised this node's cache epoch, part of every cache
 * key. Answers once a snapshot with that epoch serves (fetched now when the poll has not yet
 * brought it).
 */
async function clearCache(host: CommandHost, epoch: number): Promise<string> {
  const active = () => host.cacheEpoch() >= epoch;
  if (!active()) {
    const snapshot = await host.client().snapshot(null, 0, host.signal);
    if (snapshot === null) throw new Error('the control plane answered no snapshot');
    await host.takeSnapshot(snapshot);
    if (!active()) await host.refreshPlane();
  }
  if (!active()) throw new Error(host.snapshotError() || `cache epoch ${epoch} is not active yet`);
  return `cache epoch ${host.cacheEpoch()} active: every entry cached before misses`;
}

/** Purges URLs from nginx's cache (rampart.purge, through the admin endpoint). */
async function purge(host: CommandHost, urls: string[]): Promise<CommandOutcome> {
  if (host.applied() === null) throw new Error('no applied snapshot: nothing is cached');
  const results = await purgeUrls(host.admin, urls);
  const purged = results.reduce((sum, r) => sum + (r.purged ?? 0), 0);
  return { message: `${urls.length} URL(s): ${purged} cache entr${purged === 1 ? 'y' : 'ies'} removed`, results };
}

/** Requests URLs from this node's nginx so that the sites' cache rules store them. */
async function preheat(host: CommandHost, urls: string[]): Promise<CommandOutcome> {
  const snapshot = host.applied();
  const settings = snapshot && host.applier.settingsFor(snapshot);
  if (!settings) throw new Error('no applied snapshot: nginx serves nothing');
  const listen = settings.listenAddress;
  const address = listen === undefined || listen === '0.0.0.0' ? '127.0.0.1' : listen === '::' ? '::1' : listen;
  const results = await preheatUrls(
    { address, httpPort: settings.httpPorts[0] ?? null, httpsPort: settings.httpsPorts[0] ?? null },
    urls,
    host.signal,
  );
  const ok = results.filter((r) => r.ok).length;
  return { message: `${ok} of ${urls.length} URL(s) fetched`, results };
}

/**
 * Upgrade: installs the control plane's release `version` (upgrade.ts) and asks for a restart
 * onto it once the result is reported. nginx is not touched: it serves on while the agent restarts.
 */
async function upgrade(host: CommandHost, commandId: number, version: string): Promise<string> {
  const client = host.client();
  const { log, signal } = host;
  if (version === AGENT_VERSION) return `already running ${version}`;
  log('info', 'upgrade.started', { version, from: AGENT_VERSION });
  await installRelease(
    {
      client,
      stateDir: host.stateDir,
      log,
      signal,
      progress: async (stage, message) => {
        log('info', `upgrade.${stage}`, { version, message });
        await client.upgradeProgress({ commandId, stage, message }, signal).catch((err: unknown) => {
          log('warn', 'upgrade.progress_failed', { stage, error: describeError(err) });
        });
      },
    },
    version,
  );
  host.switchedTo(version);
  return `switched to ${version}; restarting onto it`;
}

/** Reboot: stops nginx and starts it again (a new master) with the applied snapshot. */
async function reboot(host: CommandHost): Promise<string> {
  const { nginx } = host;
  const message = await host.exclusive(async () => {
    const snapshot = host.applied();
    if (snapshot === null || host.applier.settingsFor(snapshot) === null)
      throw new Error('no applied snapshot to serve');
    const before = await nginx.masterPid();
    await nginx.stop();
    await host.applier.apply(snapshot);
    const after = await nginx.masterPid();
    return `nginx restarted: master ${before ?? 'none'} → ${after ?? 'none'}`;
  });
  host.system.forgetNginxVersion();
  host.nginxRecovered();
  host.reportStatus();
  return message;
}

/**
 * Reset: stops nginx, forgets every stored snapshot, fetches the node's snapshot afresh and
 * applies it from scratch (new config version, nginx started, data plane pushed). Should the
 * fetch or apply fail, the snapshot poll keeps trying (it asks with no known version).
 */
async function reset(host: CommandHost): Promise<string> {
  const client = host.client();
  await host.exclusive(async () => {
    await host.nginx.stop();
    await host.state.dropSnapshots();
    await host.forgetApplied();
  });
  host.log('info', 'agent.reset', {});
  const snapshot = await client.snapshot(null, 0, host.signal);
  if (snapshot === null) throw new Error('the control plane answered no snapshot');
  await host.takeSnapshot(snapshot);
  if (host.applied()?.version !== snapshot.version) throw new Error(host.snapshotError() || 'snapshot not applied');
  await host.refreshPlane();
  const master = await host.nginx.masterPid();
  return `snapshot ${snapshot.version} applied again; nginx master ${master ?? 'not running'}`;
}

/** Renames nginx's access and error logs (keeping the last few) and has nginx write fresh ones. */
export function rotateLogs(host: Pick<CommandHost, 'exclusive' | 'state' | 'nginx' | 'log'>): Promise<string> {
  return host.exclusive(async () => {
    const files = [host.state.accessLogPath, host.nginx.errorLogPath];
    const rotated = await shiftLogs(files);
    const reopened = rotated.length > 0 && (await host.nginx.reopenLogs(rotated));
    const names = rotated.map((f) => path.basename(f)).join(', ') || 'no log';
    host.log('info', 'logs.rotated', { files: rotated, reopened });
    return `rotated ${names}${reopened ? '; nginx reopened its logs' : ''}`;
  });
}
