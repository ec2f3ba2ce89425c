import { z } from 'zod';
import { BLOCKING_ACTIONS, BUILT_CHALLENGES, FIREWALL_ACTIONS } from '../enums.js';
import { zMemo } from '../validators/zod.js';
import { FREQUENCY_SECONDS_MAX, FREQUENCY_TIMES_MAX, positiveCount } from './firewall-frequency.js';
import { firewallUrlSchema } from './firewall-lists.js';

/**
 * The site firewall's anti-CC rules (spec part 1 §2 "anti-CC (layer 7)"; cdnray-behaviour.md §5.4),
 * under `user/site/{siteId}/firewall/setting/antiCCs` (list, add, delete) and `.../antiCC` (PUT),
 * as every firewall kind (routes/firewall-lists.ts).
 *
 * A rule covers the requests whose absolute URL its `urlRegex` finds a match in. With `frequency`
 * `full` ("full verification") every covered request of a client without a pass gets the challenge
 * `blockType`; with `custom`, a client's requests beyond `times` within a window of `seconds` do
 * (counted per client IP, per rule and per node, as the interval limits count). A client that
 * passes gets the site's pass cookie and is neither challenged nor counted while it holds it
 * (edge/challenge.ts). Every challenge a rule serves counts as an error for that address until it
 * is passed; an address with more than `errorTimes` errors within `errorSeconds` gets
 * `errorBlockType` — DENY (929), DROP or DROP + Blacklist — on the rule's requests instead of another challenge,
 * until that window ends. Rules are tried oldest first, after the interval and per-second limits;
 * the first that covers the request decides.
 */

export const ANTI_CC_FREQUENCIES = ['full', 'custom'] as const;
export type AntiCCFrequency = (typeof ANTI_CC_FREQUENCIES)[number];
/** What an address over the error limit gets: DENY (929), DROP or DROP + Blacklist (enums.ts FIREWALL_ACTIONS). */
export const ANTI_CC_ERROR_BLOCK_TYPES = BLOCKING_ACTIONS;

export const antiCCRuleInputSchema = z.object({
  urlRegex: firewallUrlSchema,
  frequency: z.enum(ANTI_CC_FREQUENCIES, { error: 'wrongFormat' }).default('custom'),
  /** The window and the count of the `custom` frequency (kept, unused, with `full`). */
  seconds: positiveCount(FREQUENCY_SECONDS_MAX).default(60),
  times: positiveCount(FREQUENCY_TIMES_MAX).default(30),
  /** The challenge: the ones the edge serves (enums.ts BUILT_CHALLENGES). */
  blockType: z.literal(BUILT_CHALLENGES, { error: 'wrongFormat' }),
  errorSeconds: positiveCount(FREQUENCY_SECONDS_MAX).default(60),
  errorTimes: positiveCount(FREQUENCY_TIMES_MAX).default(5),
  errorBlockType: z.literal(ANTI_CC_ERROR_BLOCK_TYPES, { error: 'wrongFormat' }).default(FIREWALL_ACTIONS.deny),
  enabled: z.boolean().default(true),
  memo: zMemo,
});
export type AntiCCRuleInput = z.input<typeof antiCCRuleInputSchema>;
export type AntiCCRuleIn = z.output<typeof antiCCRuleInputSchema>;

export const antiCCRuleSchema = z.object({
  id: z.number().int(),
  siteID: z.number().int(),
  urlRegex: z.string(),
  frequency: z.enum(ANTI_CC_FREQUENCIES),
  seconds: z.number().int(),
  times: z.number().int(),
  blockType: z.number().int(),
  errorSeconds: z.number().int(),
  errorTimes: z.number().int(),
  errorBlockType: z.number().int(),
  enabled: z.boolean(),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AntiCCRule = z.infer<typeof antiCCRuleSchema>;
