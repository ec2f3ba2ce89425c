import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type EdgeFirewall, type EdgeRuleAction, ipListRanges } from '@rampart/contract';
import { expect } from 'vitest';
import { LUA_DIR } from './edge.js';
import type { FullReply } from './send.js';

// Shared by the challenge tests (challenge, challenge-pool, challenge-browser).

export const ALL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS'];

/** A site firewall whose one blacklist rule answers every request from `ips` with `action`. */
export function challengedSite(site: number, action: EdgeRuleAction, ips = ['127.0.0.1']): EdgeFirewall {
  return {
    id: site,
    whitelist: [],
    blacklist: [{ id: site * 10, url: '.*', methods: ALL_METHODS, ...ipListRanges(ips), action }],
    userAgents: [],
    headers: [],
    intervals: [],
    rates: [],
    antiCC: [],
  };
}

export function replyOf(reply: FullReply | 'closed'): FullReply {
  if (reply === 'closed') throw new Error('the edge closed the connection');
  return reply;
}

/** The hidden fields of a challenge page's form: the token and the return path. */
export function formOf(body: string): { t: string; r: string } {
  const field = (name: string) => body.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1];
  const t = field('t');
  const r = field('r');
  if (t === undefined || r === undefined) throw new Error(`no challenge form in: ${body.slice(0, 300)}`);
  return { t, r: r.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>') };
}

/** The pool entry a code or slider token names: its nonce is "<pool id><entry, 4 hex><random>". */
export function poolEntryOf(t: string): { poolId: string; index: number } {
  const nonce = t.split('.')[5] ?? '';
  return { poolId: nonce.slice(0, 8), index: Number.parseInt(nonce.slice(8, 12), 16) };
}

/**
 * The pages' own proof-of-work script (POW_SCRIPT in rampart.challenge_pages), run here as the
 * browser runs it: the node must take what it finds.
 */
const LUA = readFileSync(path.join(LUA_DIR, 'rampart/challenge_pages.lua'), 'utf8');
const POW = new Function(`${LUA.split('local POW_SCRIPT = [[')[1]?.split(']]')[0]};return h0;`)() as (
  s: string,
) => number;

/** The proof of work a token asks: its bits (the zone's when the node issued it). */
export const bitsOf = (t: string) => Number(t.split('.')[6]);
/** Leading zero bits of SHA-256("<nonce of t>:<n>") (up to 32), as the node counts them. */
export function zeroBits(t: string, n: number): number {
  const word = createHash('sha256')
    .update(`${t.split('.')[5]}:${n}`)
    .digest()
    .readUInt32BE(0);
  return Math.clz32(word);
}

/**
 * n such that SHA-256("<nonce>:<n>") starts with `bits` zero bits (the token's unless given), found
 * by the page's function; with `below`, the first such n that does not also reach `below` bits.
 */
export function proofOfWork(t: string, bits = bitsOf(t), below?: number): number {
  if (!Number.isInteger(bits) || bits < 1 || bits > 32) throw new Error(`no work bits in the token ${t}`);
  const prefix = `${t.split('.')[5]}:`;
  for (let n = 0; n < 1 << 28; n++) {
    if (POW(prefix + n) >>> (32 - bits) === 0 && (below === undefined || zeroBits(t, n) < below)) {
      // The page's SHA-256 agrees with node's on what it found.
      expect(
        createHash('sha256')
          .update(prefix + n)
          .digest()
          .readUInt32BE(0),
      ).toBe(POW(prefix + n));
      return n;
    }
  }
  throw new Error('no proof of work found');
}
