import { z } from 'zod';
import { FIREWALL_ACTIONS } from '../enums.js';

/**
 * The challenges at the edge (docs/decisions.md "Challenges at the edge"). A rule whose protection
 * mode is a challenge lets a request through when it carries a valid pass cookie for the site, and
 * otherwise answers the challenge page; passing it sets the cookie. The node checks the cookie
 * itself, without calling the control plane: it is an HMAC-SHA256 over the site, the key id, the
 * expiry and the client address (the real one, behind trusted proxies), under a key the control
 * plane derives per operator and period from the installation secret. Keys rotate every
 * CHALLENGE_PERIOD_SECONDS: a node holds the previous, the current and the next period's key, so a
 * cookie one node signs just after a change of period is good on a node that has not yet taken the
 * new snapshot, and one signed just before stays good until it expires.
 */

/** How long a key signs new passes. */
export const CHALLENGE_PERIOD_SECONDS = 6 * 3600;
/** How long a pass lets its client through (never longer than a period, so at most two keys are in use). */
export const CHALLENGE_PASS_SECONDS = 30 * 60;
/** Keys a node holds: the previous, the current and the next period's. */
export const CHALLENGE_KEYS_MAX = 3;
/** The path every domain with a challenge rule answers itself: the challenge pages post their answers here. */
export const CHALLENGE_PATH = '/.rampart/challenge';
/** The pass cookie's name. */
export const CHALLENGE_COOKIE = 'rampart_pass';

/**
 * The proof of work of the shield, click-to-verify and slider pages (docs/decisions
 * "new-harden-challenge-work"): n such that SHA-256("<nonce>:<n>") starts with this many zero bits,
 * the nonce issued and checked by the node, bound to the client address, the site and the token's
 * lifetime. Each bit doubles the work: 21 bits, ~2 million hashes on average, cost Debian's Chromium
 * about 0.8 s on a loaded 2-core machine. Chosen per zone by the operator (routes/zones.ts).
 */
export const CHALLENGE_WORK_BITS_MIN = 16;
export const CHALLENGE_WORK_BITS_MAX = 24;
export const CHALLENGE_WORK_BITS_DEFAULT = 21;
export const zChallengeWorkBits = z.number().int().min(CHALLENGE_WORK_BITS_MIN).max(CHALLENGE_WORK_BITS_MAX);

/** What the edge does for a rule: the non-challenge actions and the challenges it serves (enums.ts). */
export const EDGE_RULE_ACTIONS = [
  'deny',
  'drop',
  'dropBlacklist',
  'shield',
  'code',
  'click',
  'redirect',
  'slider',
] as const;
export type EdgeRuleAction = (typeof EDGE_RULE_ACTIONS)[number];
export const EDGE_CHALLENGES = [
  'shield',
  'code',
  'click',
  'redirect',
  'slider',
] as const satisfies readonly EdgeRuleAction[];
/**
 * The actions of a rule that blocks without a challenge: deny, drop, and drop + blacklist (drop, and
 * the client address joins the site's block list on that node: routes/block-list.ts).
 */
export const EDGE_BLOCK_ACTIONS = ['deny', 'drop', 'dropBlacklist'] as const satisfies readonly EdgeRuleAction[];
export type EdgeBlockAction = (typeof EDGE_BLOCK_ACTIONS)[number];
/** The actions of a header rule and of a domain's anti-referer and anti-header rules at the edge. */
export const EDGE_HEADER_ACTIONS = ['deny', 'drop'] as const satisfies readonly EdgeBlockAction[];

/** The edge action of a stored protection mode that a rule kind accepts (legacy 6–9 act as 1–4). */
export const EDGE_ACTION_OF: Readonly<Record<number, EdgeRuleAction>> = Object.freeze({
  1: 'shield',
  2: 'code',
  3: 'click',
  4: 'redirect',
  5: 'slider',
  6: 'shield',
  7: 'code',
  8: 'click',
  9: 'redirect',
  [FIREWALL_ACTIONS.deny]: 'deny',
  [FIREWALL_ACTIONS.drop]: 'drop',
  [FIREWALL_ACTIONS.dropBlacklist]: 'dropBlacklist',
});

/** The period a moment falls in (its keys' id). */
export function challengePeriod(now: Date): number {
  return Math.floor(now.getTime() / 1000 / CHALLENGE_PERIOD_SECONDS);
}

/** The key ids a node holds at `now`: the previous, the current and the next period. */
export function challengeKeyIds(now: Date): [number, number, number] {
  const p = challengePeriod(now);
  return [p - 1, p, p + 1];
}

/** Unknown keys dropped, as every part of the plane's meta (plane.ts planeMetaSchema). */
export const edgeChallengeKeySchema = z.object({
  /** The period the key belongs to (challengePeriod). */
  id: z.number().int().min(0).max(2_147_483_647),
  /** 32 bytes, hex. */
  secret: z.string().regex(/^[0-9a-f]{64}$/, 'not a 32-byte hex key'),
});

/** The node's challenge keys; empty when none of its sites has a challenge rule. Unknown keys dropped. */
export const edgeChallengeSchema = z.object({
  keys: z.array(edgeChallengeKeySchema).max(CHALLENGE_KEYS_MAX),
  passSeconds: z.number().int().min(60).max(CHALLENGE_PERIOD_SECONDS),
});
export type EdgeChallenge = z.infer<typeof edgeChallengeSchema>;
/** No keys: what a node gets when none of its sites challenges. */
export function noChallenge(): EdgeChallenge {
  return { keys: [], passSeconds: CHALLENGE_PASS_SECONDS };
}
