import { z } from 'zod';
import { FIREWALL_ACTIONS } from '../enums.js';
import { zMemo } from '../validators/zod.js';
import { firewallPattern, firewallRuleId, firewallUrlSchema } from './firewall-lists.js';
import { USER_AGENT_REGEX_MAX, USER_AGENT_REGEX_RE } from './firewall-user-agents.js';

/**
 * Header blocking (spec part 1 §2 "header blocking (layer 7)", part 2 §3 "L7 anti-header list";
 * docs/decisions.md "Header blocking, anti-referer and anti-header lists"). One rule shape serves
 * the site firewall's `headers` kind and a domain's `antiHeaders` list (routes/domain-access.ts).
 *
 * A rule matches a request whose absolute URL `urlRegex` finds a match in (as the lists,
 * routes/firewall-lists.ts) and whose header `header` (case-insensitive name) either
 * - `match: 'matches'`: is present and `valueRegex` finds a match in its value — unanchored and
 *   case-insensitive, as user-agent patterns; `.*` matches any value, an empty one included; or
 * - `match: 'absent'`: is not in the request at all (`valueRegex` is then stored empty).
 * The first enabled rule that matches, oldest first, applies its mode: DENY answers 403, DROP
 * closes the connection.
 */

/** Longest header name, and its characters: a token without `_` (nginx drops headers with one). */
export const HEADER_NAME_MAX = 64;
export const HEADER_NAME_RE = /^[A-Za-z0-9-]{1,64}$/;
/** Value patterns: printable ASCII, as user-agent patterns (the characters of header values). */
const headerValuePattern = firewallPattern(USER_AGENT_REGEX_RE, USER_AGENT_REGEX_MAX);
/** Why a header value pattern is refused, or null (firewallPattern). */
export const headerValueRegexProblem = headerValuePattern.problem;

export const HEADER_MATCHES = ['matches', 'absent'] as const;
export type HeaderMatch = (typeof HEADER_MATCHES)[number];

/** The header rules' actions: DENY (403) and DROP (enums.ts FIREWALL_ACTIONS). */
export const HEADER_BLOCK_TYPES = [FIREWALL_ACTIONS.deny, FIREWALL_ACTIONS.drop] as const;

const headerRuleShape = {
  urlRegex: firewallUrlSchema,
  header: z.string({ error: 'required' }).regex(HEADER_NAME_RE, { message: 'wrongFormat' }),
  match: z.enum(HEADER_MATCHES, { error: 'invalidValue' }).default('matches'),
  valueRegex: z.string({ error: 'invalid_type' }).default(''),
  blockType: z.literal(HEADER_BLOCK_TYPES, { error: 'wrongFormat' }),
  enabled: z.boolean().default(true),
  memo: zMemo,
};

type ValueFields = { match: HeaderMatch; valueRegex: string };
/** `valueRegex` is checked only for `matches`… */
function checkValue(rule: ValueFields, ctx: z.core.$RefinementCtx) {
  if (rule.match !== 'matches') return;
  const found = headerValueRegexProblem(rule.valueRegex);
  if (found) {
    ctx.addIssue({
      code: 'custom',
      path: ['valueRegex'],
      message: found,
      ...(found === 'tooLong' ? { params: { max: USER_AGENT_REGEX_MAX } } : {}),
    });
  }
}
/** …and stored empty for `absent`. */
const blankAbsent = <R extends ValueFields>(rule: R): R =>
  rule.match === 'absent' ? { ...rule, valueRegex: '' } : rule;

export const headerRuleInputSchema = z.object(headerRuleShape).superRefine(checkValue).transform(blankAbsent);
export type HeaderRuleInput = z.input<typeof headerRuleInputSchema>;
export type HeaderRuleIn = z.output<typeof headerRuleInputSchema>;
/** The replace call's body: the rule and its `id`. */
export const headerRuleUpdateSchema = z
  .object({ ...headerRuleShape, ...firewallRuleId })
  .superRefine(checkValue)
  .transform(blankAbsent);

/** A header rule's fields as stored and answered, without the owner's id. */
export const headerRuleFields = {
  id: z.number().int(),
  urlRegex: z.string(),
  header: z.string(),
  match: z.enum(HEADER_MATCHES),
  valueRegex: z.string(),
  blockType: z.number().int(),
  enabled: z.boolean(),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
};
export const headerRuleSchema = z.object({ ...headerRuleFields, siteID: z.number().int() });
export type HeaderRule = z.infer<typeof headerRuleSchema>;
