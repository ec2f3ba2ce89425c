import { z } from 'zod';
import { EVENT_DECISION_ACTIONS, EVENT_DECISION_KINDS } from '../routes/analytics-events.js';
import { isIP } from '../validators/ip.js';

/**
 * Refused requests the edge did not write to its access log. Of the requests one address sends to
 * one domain in one minute that the same decision (kind, rule, action) refuses, nginx logs the
 * first whole (it becomes the collapsed record's sample, routes/analytics-aggregates.ts) and only
 * counts the rest in a shared dict, so a flood costs no log line per request. The agent drains the
 * tallies from nginx's admin endpoint (`GET /refusals`, which pops them) and folds each into the
 * minute's aggregate: every counter, the status, the address's summaries and the collapsed record.
 * The other dimensions of a repeat (URL, user agent, referer, method, country) are those of the
 * logged first request.
 */

/** Most tallies one drain returns; the agent drains again while `more` is true. */
export const REFUSAL_DRAIN_MAX = 5000;

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const refusalTallySchema = z.strictObject({
  /** The minute's start, unix milliseconds (UTC). */
  minute: z
    .number()
    .int()
    .min(0)
    .refine((t) => t % 60_000 === 0, { message: 'not a whole minute' }),
  /** The matched domain's id (0: no domain). */
  domainId: z.number().int().min(0),
  ip: z
    .string()
    .max(45)
    .refine((s) => isIP(s), { message: 'wrongFormat' }),
  fwKind: z.enum(EVENT_DECISION_KINDS),
  fwRule: z.number().int().min(0),
  fwAction: z.enum(EVENT_DECISION_ACTIONS),
  /** The status the refusals were answered with (444: the connection was closed). */
  status: z.number().int().min(100).max(999),
  /** Requests counted here, not logged. */
  count: z.number().int().min(1),
  bytesIn: count,
  bytesOut: count,
  /** The last one's time, unix milliseconds. */
  last: z.number().int().min(0),
});
export type RefusalTally = z.infer<typeof refusalTallySchema>;

export const refusalDrainSchema = z.strictObject({
  tallies: z.array(refusalTallySchema).max(REFUSAL_DRAIN_MAX),
  /** Tallies more are waiting (drain again). */
  more: z.boolean(),
  /** Refused requests neither logged nor tallied since the last drain (the dict was full): counted, without an address. */
  dropped: count,
});
export type RefusalDrain = z.infer<typeof refusalDrainSchema>;
