import { z } from 'zod';
import { dataOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { canonicalIPEntry, isCIDR, isIP } from '../validators/ip.js';
import { normalizeHostPort } from '../validators/url.js';
import {
  ERROR_PAGE_LANGUAGES,
  ERROR_PAGE_MAX_BYTES,
  ERROR_PAGE_STATUSES,
  GZIP_DEFAULT_MIN_LENGTH,
  GZIP_DEFAULT_TYPES,
  gzipSettingInputSchema,
  OPERATOR_ERROR_PAGES_MAX_BYTES,
  utf8Bytes,
} from './site-settings.js';

/**
 * The operator's system settings of spec part 2 §7 "System settings" (docs/decisions.md "System
 * settings: outgoing URL, account verify, restrict group CIDRs"). Each is the operator's own: one
 * operator's setting never reaches another's accounts or calls.
 *
 * - `outgoingURL`: the destinations Rampart may call out to for the operator (log push, DNS
 *   provider APIs, the ACME directory, the Telegram Bot API, the SMTP server). Entries are
 *   `[scheme://][*.]host[:port]`; no scheme = any scheme, no port = any port. Empty = anywhere.
 * - `accountVerify`: which of the operator's accounts must have a second factor: `off`, `operator`
 *   (the operator and its sub-accounts) or `all` (its customers and their sub-users too). An account
 *   without one may sign in but every call except its own account's (`account.self`: the second
 *   factor's setup) answers 101018 with reason `secondFactorRequired` until it has set one. The
 *   caller must have a second factor itself to turn it on (101003 on `mode` otherwise).
 * - `restrictGroupCIDRs`: the addresses (IPs or CIDRs) the operator and its sub-accounts may sign in
 *   and call from; empty = anywhere. Customers are not restricted. Outside: 101018 with reason
 *   `addressNotAllowed`. A list without the caller's own address is refused (101003 on `cidrs`).
 * - `errorPages`: the operator's default pages for the statuses the edge answers itself (the 9xx
 *   block codes, 403, 404, 50x, ...: site-settings.ts ERROR_PAGE_STATUSES), served at its nodes as
 *   HTML, verbatim, for a site that has no page of its own for the status. Saving replaces the set.
 */

/** Most entries of the outgoing URL list and of the CIDR list. */
export const OUTGOING_URLS_MAX = 200;
export const RESTRICT_CIDRS_MAX = 200;

/** The schemes an outgoing entry may name (what the guard is asked about: HTTP calls, syslog, SMTP, DNS). */
export const OUTGOING_SCHEMES = ['http', 'https', 'tcp', 'tls', 'udp', 'smtp', 'dns'] as const;

/** An outgoing entry in canonical form (lower-case scheme and ASCII host), or null when it is not one. */
export function normalizeOutgoingEntry(input: string): string | null {
  const m = /^(?:([a-z]+):\/\/)?([^/?#\s]+)\/?$/iu.exec(input.trim());
  if (!m) return null;
  const scheme = m[1]?.toLowerCase();
  if (scheme !== undefined && !(OUTGOING_SCHEMES as readonly string[]).includes(scheme)) return null;
  const hostPort = normalizeHostPort(m[2] ?? '', { wildcard: true });
  if (!hostPort.ok) return null;
  return scheme === undefined ? hostPort.value : `${scheme}://${hostPort.value}`;
}

function uniqueEntries(
  normalize: (s: string) => string | null,
  duplicate: 'duplicateIP' | 'invalidValue',
): (entries: readonly string[], ctx: z.RefinementCtx) => void {
  return (entries, ctx) => {
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      const key = normalize(entry);
      if (key === null) ctx.addIssue({ code: 'custom', path: [i], message: 'wrongFormat' });
      else if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i], message: duplicate });
      else seen.add(key);
    });
  };
}

export const outgoingUrlSettingSchema = z.object({ urls: z.array(z.string()) });
export type OutgoingUrlSetting = z.infer<typeof outgoingUrlSettingSchema>;
export const outgoingUrlSettingInSchema = z.object({
  urls: z
    .array(z.string().max(300, { message: 'tooLong' }))
    .max(OUTGOING_URLS_MAX, { message: 'tooMany' })
    .superRefine(uniqueEntries(normalizeOutgoingEntry, 'invalidValue'))
    .transform((urls) => urls.map((u) => normalizeOutgoingEntry(u) as string)),
});
export type OutgoingUrlSettingIn = z.output<typeof outgoingUrlSettingInSchema>;

export const ACCOUNT_VERIFY_MODES = ['off', 'operator', 'all'] as const;
export type AccountVerifyMode = (typeof ACCOUNT_VERIFY_MODES)[number];
export const accountVerifySettingSchema = z.object({
  mode: z.enum(ACCOUNT_VERIFY_MODES, { message: 'invalidValue' }),
});
export type AccountVerifySetting = z.infer<typeof accountVerifySettingSchema>;

export const restrictCidrsSettingSchema = z.object({ cidrs: z.array(z.string()) });
export type RestrictCidrsSetting = z.infer<typeof restrictCidrsSettingSchema>;
export const restrictCidrsSettingInSchema = z.object({
  cidrs: z
    .array(z.string().max(64, { message: 'tooLong' }))
    .max(RESTRICT_CIDRS_MAX, { message: 'tooMany' })
    .superRefine(uniqueEntries((s) => (isIP(s) || isCIDR(s) ? canonicalIPEntry(s) : null), 'duplicateIP')),
});
export type RestrictCidrsSettingIn = z.output<typeof restrictCidrsSettingInSchema>;

export const operatorErrorPageSchema = z.object({
  status: z
    .number()
    .int()
    .refine((n) => (ERROR_PAGE_STATUSES as readonly number[]).includes(n), { message: 'invalidValue' }),
  body: z
    .string()
    .min(1, { message: 'required' })
    .refine((b) => utf8Bytes(b) <= ERROR_PAGE_MAX_BYTES, { message: 'tooLong' }),
});
export const operatorErrorPagesSchema = z.object({
  pages: z.array(z.object({ status: z.number().int(), body: z.string() })),
});
export type OperatorErrorPages = z.infer<typeof operatorErrorPagesSchema>;
export const operatorErrorPagesInSchema = z.object({
  pages: z
    .array(operatorErrorPageSchema)
    .max(ERROR_PAGE_STATUSES.length, { message: 'tooMany' })
    .superRefine((pages, ctx) => {
      const seen = new Set<number>();
      pages.forEach((page, i) => {
        if (seen.has(page.status)) ctx.addIssue({ code: 'custom', path: [i, 'status'], message: 'invalidValue' });
        seen.add(page.status);
      });
      if (pages.reduce((n, p) => n + utf8Bytes(p.body), 0) > OPERATOR_ERROR_PAGES_MAX_BYTES) {
        ctx.addIssue({ code: 'custom', message: 'tooLong' });
      }
    })
    .transform((pages) => [...pages].sort((a, b) => a.status - b.status)),
});
export type OperatorErrorPagesIn = z.output<typeof operatorErrorPagesInSchema>;

/** Why a signed-in call or a sign-in was refused by these settings (101018 `extra.reason`). */
export const SECOND_FACTOR_REQUIRED = 'secondFactorRequired';
export const ADDRESS_NOT_ALLOWED = 'addressNotAllowed';

const route = routeFamily({
  tags: ['settings'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
});

function settingRoutes<In extends z.ZodType, Out extends z.ZodType>(
  name: string,
  label: string,
  input: In,
  output: Out,
  effect: string,
) {
  return {
    get: route.get(`client.setting.${name}`, `/client/setting/${name}`, {
      summary: `The operator's ${label}`,
      response: dataOf(output),
    }),
    save: route.put(`client.setting.${name}.save`, `/client/setting/${name}`, {
      summary: `Sets the operator's ${label}; ${effect}`,
      body: input,
      response: dataOf(output),
    }),
  };
}

const outgoing = settingRoutes(
  'outgoingURL',
  'outgoing URL list (empty: every destination)',
  outgoingUrlSettingInSchema,
  outgoingUrlSettingSchema,
  'log push, DNS provider, ACME, Telegram and SMTP calls to a destination outside it are refused',
);
const accountVerify = settingRoutes(
  'accountVerify',
  'second-factor requirement (off until set)',
  accountVerifySettingSchema,
  accountVerifySettingSchema,
  'accounts it covers without a second factor can only set one up',
);
const restrictCidrs = settingRoutes(
  'restrictGroupCIDRs',
  'addresses its own accounts may sign in and call from (empty: anywhere)',
  restrictCidrsSettingInSchema,
  restrictCidrsSettingSchema,
  "a list that leaves out the caller's own address is refused",
);

const errorPages = settingRoutes(
  'errorPages',
  "default error pages (none until set: the edge's own)",
  operatorErrorPagesInSchema,
  operatorErrorPagesSchema,
  "its nodes serve them for a site's status that has no page of its own",
);

/**
 * The operator's predefined settings (spec `perdefinedSetting`): the site settings every new site of
 * the operator starts with: HTTP compression and the language of the edge's own error pages. They
 * are copied into the site when it is created; changing them later leaves existing sites as they are.
 */
export const perdefinedSettingSchema = z.object({
  gzip: gzipSettingInputSchema,
  errorPageLanguage: z.enum(ERROR_PAGE_LANGUAGES),
});
export type PerdefinedSettingInput = z.input<typeof perdefinedSettingSchema>;
export type PerdefinedSetting = z.output<typeof perdefinedSettingSchema>;
/** What a new site starts with until the operator sets otherwise (compression off, English pages). */
export const PERDEFINED_SETTING_DEFAULT: PerdefinedSetting = {
  gzip: { enabled: false, types: [...GZIP_DEFAULT_TYPES], minLength: GZIP_DEFAULT_MIN_LENGTH },
  errorPageLanguage: 'en_US',
};

const perdefined = settingRoutes(
  'perdefined',
  'predefined settings of new sites (compression off and English error pages until set)',
  perdefinedSettingSchema,
  perdefinedSettingSchema,
  'every site created afterwards starts with them; existing sites keep theirs',
);

export const getPerdefinedSetting = perdefined.get;
export const savePerdefinedSetting = perdefined.save;

export const getOutgoingUrlSetting = outgoing.get;
export const saveOutgoingUrlSetting = outgoing.save;
export const getAccountVerifySetting = accountVerify.get;
export const saveAccountVerifySetting = accountVerify.save;
export const getRestrictCidrsSetting = restrictCidrs.get;
export const saveRestrictCidrsSetting = restrictCidrs.save;

export const getOperatorErrorPages = errorPages.get;
export const saveOperatorErrorPages = errorPages.save;

export const systemSettingRoutes = {
  getOutgoingUrlSetting,
  saveOutgoingUrlSetting,
  getAccountVerifySetting,
  saveAccountVerifySetting,
  getRestrictCidrsSetting,
  saveRestrictCidrsSetting,
  getOperatorErrorPages,
  saveOperatorErrorPages,
  getPerdefinedSetting,
  savePerdefinedSetting,
} as const;
