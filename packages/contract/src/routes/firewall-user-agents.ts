import { z } from 'zod';
import { zMemo } from '../validators/zod.js';
import { CHALLENGE_OR_BLOCK_TYPES, firewallPattern, firewallUrlSchema } from './firewall-lists.js';

/**
 * The site firewall's user-agent rules (spec part 1 §2 "User-agent rules: URL, user agent, protection
 * mode, enabled"; cdnray-behaviour.md §5.7). A rule matches a request whose absolute URL the `urlRegex`
 * pattern (the spec's rule field name; the lists' `url` under the product's documented bodies) finds a match in (as the lists, routes/firewall-lists.ts) and whose `User-Agent` header the
 * `userAgentRegex` finds a match in — unanchored and case-insensitive (`curl` matches `curl/8.5.0`
 * and `Curl`); a request without the header is matched as an empty string. The first enabled rule
 * that matches, oldest first, applies its mode: DENY answers 403, DROP closes the connection. They
 * run after the whitelist (a whitelisted client skips them) and the blacklist.
 */

/** Longest user-agent pattern. */
export const USER_AGENT_REGEX_MAX = 256;
/** A user-agent pattern is printable ASCII (spaces included): the characters of User-Agent strings. */
export const USER_AGENT_REGEX_RE = /^[\x20-\x7e]+$/;

const userAgentPattern = firewallPattern(USER_AGENT_REGEX_RE, USER_AGENT_REGEX_MAX);
/** Why a user-agent pattern is refused, or null (firewallPattern). */
export const userAgentRegexProblem = userAgentPattern.problem;
export const userAgentRegexSchema = userAgentPattern.schema;

/** The user-agent rules' protection modes: the challenges, DENY (403), DROP and DROP + Blacklist (firewall-lists.ts). */
export const USER_AGENT_BLOCK_TYPES = CHALLENGE_OR_BLOCK_TYPES;

export const userAgentRuleInputSchema = z.object({
  urlRegex: firewallUrlSchema,
  userAgentRegex: userAgentRegexSchema,
  blockType: z.literal(USER_AGENT_BLOCK_TYPES, { error: 'wrongFormat' }),
  enabled: z.boolean().default(true),
  memo: zMemo,
});
export type UserAgentRuleInput = z.input<typeof userAgentRuleInputSchema>;
export type UserAgentRuleIn = z.output<typeof userAgentRuleInputSchema>;

export const userAgentRuleSchema = z.object({
  id: z.number().int(),
  siteID: z.number().int(),
  urlRegex: z.string(),
  userAgentRegex: z.string(),
  blockType: z.number().int(),
  enabled: z.boolean(),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserAgentRule = z.infer<typeof userAgentRuleSchema>;
