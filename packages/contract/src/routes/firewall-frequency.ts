import { z } from 'zod';
import { BLOCKING_ACTIONS } from '../enums.js';
import { zMemo } from '../validators/zod.js';
import { firewallUrlSchema } from './firewall-lists.js';

/**
 * The site firewall's frequency limits (spec part 1 §2 "Timed rate rules: URL, seconds, request
 * count, priority, protection mode, enabled" and "Rate rules: URL, rate, burst, priority,
 * protection mode, enabled", §5 "seconds and times must exceed 0"; cdnray-behaviour.md §5.5, §5.6),
 * counted per client IP, per rule and per node (each node counts the requests it sees).
 *
 * - **Interval limits** (`intervalLimits`): at most `times` requests in a window of `seconds`; the
 *   window is fixed (it starts with the IP's first request), and once over it every request of the
 *   IP that the rule covers gets the rule's mode until the window ends.
 * - **Per-second limits** (`secondLimits`): `rate` requests per second with room for `burst` more
 *   (nginx's `limit_req` without `nodelay`: requests over the rate but within the burst are slowed
 *   down to the rate); a request beyond both gets the rule's mode, and so does every request of that
 *   IP the rule covers for `blockSeconds` (0: only the requests beyond the limit).
 *
 * A rule covers the requests whose absolute URL its `urlRegex` finds a match in (as the lists,
 * routes/firewall-lists.ts). Each table orders its own rules by `priority`, higher first, then
 * oldest first (the spec gives each table its own priority column); interval limits are tried
 * before per-second limits. Every enabled rule that covers a request counts it, and the first one
 * over its limit applies its mode:
 * DENY answers 929 (the product's code for frequency limits), DROP closes the connection. A
 * whitelisted client is never counted.
 */

export const FREQUENCY_SECONDS_MAX = 86_400;
export const FREQUENCY_TIMES_MAX = 1_000_000;
export const SECOND_RATE_MAX = 100_000;
export const SECOND_BURST_MAX = 100_000;
export const BLOCK_SECONDS_MAX = 86_400;
export const FIREWALL_PRIORITY_MAX = 100;

/** The frequency limits' actions: DENY (929), DROP and DROP + Blacklist (enums.ts FIREWALL_ACTIONS). */
export const FREQUENCY_BLOCK_TYPES = BLOCKING_ACTIONS;

/** A whole number from 1 to `max` (spec §5: "seconds and times must exceed 0"). */
export const positiveCount = (max: number) =>
  z
    .number()
    .int()
    .max(max)
    .refine((n) => n >= 1, { message: 'mustBePositive' });

const frequencyBase = {
  urlRegex: firewallUrlSchema,
  priority: z.number().int().min(0).max(FIREWALL_PRIORITY_MAX).default(0),
  blockType: z.literal(FREQUENCY_BLOCK_TYPES, { error: 'wrongFormat' }),
  enabled: z.boolean().default(true),
  memo: zMemo,
};

export const intervalLimitInputSchema = z.object({
  ...frequencyBase,
  seconds: positiveCount(FREQUENCY_SECONDS_MAX),
  times: positiveCount(FREQUENCY_TIMES_MAX),
});
export type IntervalLimitInput = z.input<typeof intervalLimitInputSchema>;
export type IntervalLimitIn = z.output<typeof intervalLimitInputSchema>;

export const secondLimitInputSchema = z.object({
  ...frequencyBase,
  rate: positiveCount(SECOND_RATE_MAX),
  burst: z.number().int().min(0).max(SECOND_BURST_MAX).default(0),
  blockSeconds: z.number().int().min(0).max(BLOCK_SECONDS_MAX).default(0),
});
export type SecondLimitInput = z.input<typeof secondLimitInputSchema>;
export type SecondLimitIn = z.output<typeof secondLimitInputSchema>;

const outputBase = {
  id: z.number().int(),
  siteID: z.number().int(),
  urlRegex: z.string(),
  priority: z.number().int(),
  blockType: z.number().int(),
  enabled: z.boolean(),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
};
export const intervalLimitSchema = z.object({ ...outputBase, seconds: z.number().int(), times: z.number().int() });
export type IntervalLimit = z.infer<typeof intervalLimitSchema>;
export const secondLimitSchema = z.object({
  ...outputBase,
  rate: z.number().int(),
  burst: z.number().int(),
  blockSeconds: z.number().int(),
});
export type SecondLimit = z.infer<typeof secondLimitSchema>;
