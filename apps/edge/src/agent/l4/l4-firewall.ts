import { spawn } from 'node:child_process';
import { type EdgeBlockReport, type L4Rules, l4RulesSchema } from '@rampart/contract';
import { errorText, type Logger } from '../log.js';
import {
  DYNAMIC_SET_SIZE,
  type L4BlockedEntry,
  renderBlock,
  renderL4Ruleset,
  renderUnblock,
} from './l4-rules-render.js';

/**
 * The agent's layer-4 firewall (issue 22; docs/decisions.md "Layer-4 protection in the kernel"):
 * applies the layer-4 protection document as the node's nftables table `inet rampart`, replaced
 * whole in one `nft -f` transaction (l4-rules-render.ts). When nft refuses a new document the
 * kernel kept the old table: the firewall keeps the last good document (`applied`), and says why
 * (`lastError`, the log). Stopping the agent leaves the table in force: the node keeps its rules.
 *
 * `block` adds addresses to the blocked sets for a while (the entry point of the layer-7 DROP +
 * Blacklist push-down). The firewall remembers those blocks until they expire and writes them
 * into every new table, so replacing the table does not let them in again.
 */

/** How long one `nft -f` may take (a table of several 100k CIDR blocks loads in seconds). */
const NFT_TIMEOUT_MS = 60_000;

export interface L4FirewallOptions {
  /** The nft command and its leading arguments (default `['nft']`; tests run it in a namespace). */
  nft?: readonly string[];
  log?: Logger;
  /** Renders a document (default renderL4Ruleset; tests put a failing one in). */
  render?: (rules: L4Rules, blocked: readonly L4BlockedEntry[]) => string;
  now?: () => number;
  /** Most addresses blocked at once (default DYNAMIC_SET_SIZE, what a blocked set holds). */
  maxBlocks?: number;
}

/** nft refused a ruleset; the kernel kept what it had. */
export class NftError extends Error {
  override readonly name = 'NftError';
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}

/** Runs `nft -f -` with `text` on its standard input. */
export function runNft(command: readonly string[], text: string, timeoutMs = NFT_TIMEOUT_MS): Promise<void> {
  const [file, ...args] = command;
  if (file === undefined) return Promise.reject(new Error('no nft command'));
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...args, '-f', '-'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      if (stderr.length < 8_000) stderr += d;
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new NftError(
            `nft refused the ruleset (${signal ?? `exit ${code}`}): ${stderr.trim().slice(0, 1000)}`,
            stderr,
          ),
        );
    });
    child.stdin.on('error', () => {}); // nft exiting early closes the pipe: its exit code says why
    child.stdin.end(text);
  });
}

export class L4Firewall {
  private readonly nft: readonly string[];
  private readonly render: (rules: L4Rules, blocked: readonly L4BlockedEntry[]) => string;
  private readonly now: () => number;
  /** The document the kernel enforces (the last one nft took). */
  applied: L4Rules | null = null;
  /** Why the latest document or block did not apply ('' when it did). */
  lastError = '';
  /** How long the last successful table replacement took (ms). */
  lastApplyMs = 0;
  /** Blocked addresses → when their block ends (ms since the epoch). */
  private readonly blocks = new Map<string, number>();

  constructor(private readonly options: L4FirewallOptions = {}) {
    this.nft = options.nft ?? ['nft'];
    this.render = options.render ?? renderL4Ruleset;
    this.now = options.now ?? Date.now;
  }

  /** The blocks still running, with the whole seconds left (at least 1). */
  blockedEntries(): L4BlockedEntry[] {
    const now = this.now();
    const out: L4BlockedEntry[] = [];
    for (const [ip, until] of this.blocks) {
      if (until <= now) this.blocks.delete(ip);
      else out.push({ ip, seconds: Math.max(1, Math.ceil((until - now) / 1000)) });
    }
    return out;
  }

  /**
   * Replaces the table with `document` (checked against the contract first). Throws when the
   * document is refused or nft refuses the ruleset; the previous table and `applied` stay.
   */
  async apply(document: unknown): Promise<void> {
    const parsed = l4RulesSchema.safeParse(document);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return this.fail(new Error(`l4 rules refused: ${issue?.path.join('.')}: ${issue?.message}`), 'refused');
    }
    const started = performance.now();
    try {
      await runNft(this.nft, this.render(parsed.data, this.blockedEntries()));
    } catch (err) {
      return this.fail(err, 'apply_failed');
    }
    this.lastApplyMs = performance.now() - started;
    this.applied = parsed.data;
    this.lastError = '';
    this.options.log?.('info', 'l4.applied', { ports: parsed.data.ports.length, ms: Math.round(this.lastApplyMs) });
  }

  /**
   * Blocks addresses for `seconds` each in the kernel, in one transaction (every address, or none
   * when nft refuses). Before the first table is in force the blocks are only remembered: the
   * first table is written with them.
   */
  async block(requested: readonly L4BlockedEntry[]): Promise<void> {
    // The blocked sets hold DYNAMIC_SET_SIZE entries: more would make the next table refused.
    // Beyond it new addresses are left to nginx (which blocks them at layer 7 anyway).
    let room = (this.options.maxBlocks ?? DYNAMIC_SET_SIZE) - this.blockedEntries().length;
    const entries = requested.filter((e) => this.blocks.has(e.ip) || room-- > 0);
    if (entries.length < requested.length)
      this.options.log?.('warn', 'l4.blocks_full', { left: requested.length - entries.length, kept: this.blocks.size });
    if (entries.length === 0) return;
    if (this.applied !== null) {
      try {
        await runNft(this.nft, renderBlock(entries));
      } catch (err) {
        return this.fail(err, 'block_failed');
      }
    }
    const now = this.now();
    for (const { ip, seconds } of entries) this.blocks.set(ip, now + seconds * 1000);
  }

  /**
   * Lifts the blocks of these addresses (the customer unblocked them): out of the kernel's sets in
   * one transaction, and out of what the next table is written with.
   */
  async unblock(ips: readonly string[]): Promise<void> {
    if (ips.length === 0) return;
    if (this.applied !== null) {
      try {
        await runNft(this.nft, renderUnblock(ips));
      } catch (err) {
        return this.fail(err, 'unblock_failed');
      }
    }
    for (const ip of ips) this.blocks.delete(ip);
  }

  private fail(err: unknown, event: string): never {
    this.lastError = errorText(err).slice(0, 2000);
    this.options.log?.('error', `l4.${event}`, { error: this.lastError });
    throw err instanceof Error ? err : new Error(this.lastError);
  }
}

/** Longest block the kernel keeps (the layer-7 rules block for at most this long too). */
export const KERNEL_BLOCK_SECONDS_MAX = 30 * 86_400;

/**
 * The layer-7 DROP + Blacklist blocks nginx reported (agent/block-list.ts) as kernel blocks: one
 * entry per address with the longest time left (a block of several sites counts once: the kernel
 * drops the address on every guarded port), expired ones left out. `nowSeconds`: Unix time.
 */
export function kernelBlocksOf(reports: readonly EdgeBlockReport[], nowSeconds: number): L4BlockedEntry[] {
  const longest = new Map<string, number>();
  for (const r of reports) {
    const seconds = Math.min(KERNEL_BLOCK_SECONDS_MAX, r.expiresAt - Math.floor(nowSeconds));
    if (seconds >= 1 && seconds > (longest.get(r.ip) ?? 0)) longest.set(r.ip, seconds);
  }
  return [...longest].map(([ip, seconds]) => ({ ip, seconds }));
}
