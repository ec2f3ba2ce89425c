import { type EdgeFirewall, type EdgeRuleAction, ipListRanges } from '@rampart/contract';
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
