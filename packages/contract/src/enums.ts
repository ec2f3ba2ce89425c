import { z } from 'zod';
import type { Locale, Localized } from './locale.js';

// Protection mode (part 1 §4)

/** The protection mode a rule applies to a matching visitor (part 1 §4). */
export const BLOCK_TYPES = {
  fiveSecondShield: 1,
  code: 2,
  clickToVerify: 3,
  redirect: 4,
  sliderCaptcha: 5,
} as const;
export type BlockType = (typeof BLOCK_TYPES)[keyof typeof BLOCK_TYPES];

/** Old rules still carry 6–9; they behave as 1–4 and the console marks them as legacy (part 1 §4). */
export const LEGACY_BLOCK_TYPES = { 6: 1, 7: 2, 8: 3, 9: 4 } as const satisfies Record<number, BlockType>;
export type LegacyBlockType = keyof typeof LEGACY_BLOCK_TYPES;

/** A stored or submitted block type: current 1–5 or legacy 6–9, so old rules can be re-saved unchanged. */
export const blockTypeSchema = z.literal([1, 2, 3, 4, 5, 6, 7, 8, 9]);
export type StoredBlockType = z.infer<typeof blockTypeSchema>;

/** The current mode of a stored block type and whether it was a legacy value. Throws on anything else. */
export function normalizeBlockType(n: number): { blockType: BlockType; legacy: boolean } {
  if (Number.isInteger(n) && n >= 1 && n <= 5) return { blockType: n as BlockType, legacy: false };
  if (Object.hasOwn(LEGACY_BLOCK_TYPES, n)) {
    return { blockType: LEGACY_BLOCK_TYPES[n as LegacyBlockType], legacy: true };
  }
  throw new RangeError(`unknown block type ${n}`);
}

export const BLOCK_TYPE_LABELS = {
  1: { en_US: 'Five-Second Shield', zh_CN: '五秒盾', zh_TW: '五秒盾' },
  2: { en_US: 'Verification Code', zh_CN: '验证码', zh_TW: '驗證碼' },
  3: { en_US: 'Click to Verify', zh_CN: '点击验证', zh_TW: '點擊驗證' },
  4: { en_US: 'Redirect Verification', zh_CN: '重定向验证', zh_TW: '重新導向驗證' },
  5: { en_US: 'Slider Captcha', zh_CN: '滑块验证码', zh_TW: '滑動驗證碼' },
} as const satisfies Record<BlockType, Localized>;

/** Appended to the label of a legacy block type (part 1 §4). */
export const BLOCK_TYPE_LEGACY_SUFFIX: Localized = { en_US: ' (legacy)', zh_CN: '（旧版）', zh_TW: '（舊版）' };

/** The label the console shows for a stored block type, legacy suffix included. */
export function blockTypeLabel(n: number, locale: Locale): string {
  const { blockType, legacy } = normalizeBlockType(n);
  const label = BLOCK_TYPE_LABELS[blockType][locale];
  return legacy ? label + BLOCK_TYPE_LEGACY_SUFFIX[locale] : label;
}

/**
 * The actions that are not challenges, in the same `blockType` field as the challenges (our
 * numbering: the spec numbers only the challenges 1–5 and the legacy 6–9; CDNRay's own numbers for
 * these were never published, cdnray-behaviour.md §5.2). One field, one numbering, for every rule
 * kind: a kind accepts the values that make sense for it (see routes/firewall-lists.ts).
 *
 * - 10 DENY: the edge answers an error page — 403 for the lists and user-agent rules, 929 for the
 *   frequency limits (cdnray-behaviour.md §5.0).
 * - 11 DROP: the connection is closed unanswered (nginx 444).
 * - 12 DROP + Blacklist: as DROP, and the client IP goes on the site's block list.
 */
export const FIREWALL_ACTIONS = { deny: 10, drop: 11, dropBlacklist: 12 } as const;
export type FirewallAction = (typeof FIREWALL_ACTIONS)[keyof typeof FIREWALL_ACTIONS];
/** The three actions that block without a challenge, for the kinds that take all of them. */
export const BLOCKING_ACTIONS = [FIREWALL_ACTIONS.deny, FIREWALL_ACTIONS.drop, FIREWALL_ACTIONS.dropBlacklist] as const;

export const FIREWALL_ACTION_LABELS = {
  10: { en_US: 'DENY', zh_CN: '拒绝', zh_TW: '拒絕' },
  11: { en_US: 'DROP', zh_CN: '丢弃', zh_TW: '丟棄' },
  12: { en_US: 'DROP + Blacklist', zh_CN: '丢弃并加入黑名单', zh_TW: '丟棄並加入黑名單' },
} as const satisfies Record<FirewallAction, Localized>;

/**
 * The challenges the edge serves (edge/challenge.ts, docs/decisions.md "Challenges at the edge" and
 * "The code and slider challenges"): all five. A new rule takes 1–5; the legacy 6–9 are shown with
 * their suffix and act as 1–4.
 */
export const BUILT_CHALLENGES = [
  BLOCK_TYPES.fiveSecondShield,
  BLOCK_TYPES.code,
  BLOCK_TYPES.clickToVerify,
  BLOCK_TYPES.redirect,
  BLOCK_TYPES.sliderCaptcha,
] as const;
export type BuiltChallenge = (typeof BUILT_CHALLENGES)[number];

/** A value of the one `blockType` numbering: a challenge (1–5, legacy 6–9) or an action (10–12). */
export type ProtectionMode = StoredBlockType | FirewallAction;

/** The label of any protection mode (legacy challenges with their suffix), or null for an unknown value. */
export function protectionModeLabel(n: number, locale: Locale): string | null {
  if (Object.hasOwn(FIREWALL_ACTION_LABELS, n)) return FIREWALL_ACTION_LABELS[n as FirewallAction][locale];
  if (blockTypeSchema.safeParse(n).success) return blockTypeLabel(n, locale);
  return null;
}

// Account statuses (part 1 §3, part 2 §4)

/** Status of a console account. */
export const ACCOUNT_STATUSES = ['normal', 'pause', 'lock', 'expired'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
export const accountStatusSchema = z.enum(ACCOUNT_STATUSES);
export const ACCOUNT_STATUS_LABELS = {
  normal: { en_US: 'Normal', zh_CN: '正常', zh_TW: '正常' },
  pause: { en_US: 'Paused', zh_CN: '已暂停', zh_TW: '已暫停' },
  lock: { en_US: 'Locked', zh_CN: '已锁定', zh_TW: '已鎖定' },
  expired: { en_US: 'Expired', zh_CN: '已过期', zh_TW: '已過期' },
} as const satisfies Record<AccountStatus, Localized>;

/** The spec's second account status set (part 1 §3); `limit` reads as restricted, compare 205006. */
export const SITE_ACCOUNT_STATUSES = ['normal', 'pause', 'limit'] as const;
export type SiteAccountStatus = (typeof SITE_ACCOUNT_STATUSES)[number];
export const siteAccountStatusSchema = z.enum(SITE_ACCOUNT_STATUSES);
export const SITE_ACCOUNT_STATUS_LABELS = {
  normal: { en_US: 'Normal', zh_CN: '正常', zh_TW: '正常' },
  pause: { en_US: 'Paused', zh_CN: '已暂停', zh_TW: '已暫停' },
  limit: { en_US: 'Limited', zh_CN: '受限', zh_TW: '受限' },
} as const satisfies Record<SiteAccountStatus, Localized>;

// Domain status (part 1 §3, §4)

/** Domain status as stored and sent: a number, not a boolean, because the spec's wire format is 1/0. */
export const DOMAIN_STATUS = { enabled: 1, disabled: 0 } as const;
export type DomainStatus = (typeof DOMAIN_STATUS)[keyof typeof DOMAIN_STATUS];
export const domainStatusSchema = z.literal([DOMAIN_STATUS.enabled, DOMAIN_STATUS.disabled]);
export const DOMAIN_STATUS_LABELS = {
  1: { en_US: 'Enabled', zh_CN: '已启用', zh_TW: '已啟用' },
  0: { en_US: 'Disabled', zh_CN: '已禁用', zh_TW: '已停用' },
} as const satisfies Record<DomainStatus, Localized>;

// Region rules (part 1 §4)

/** Labels of a rule's isBlack flag. */
export const LIST_KIND_LABELS = {
  black: { en_US: 'Blacklist', zh_CN: '黑名单', zh_TW: '黑名單' },
  white: { en_US: 'Whitelist', zh_CN: '白名单', zh_TW: '白名單' },
} as const satisfies Record<'black' | 'white', Localized>;

/** A new region rule: black list, no positions, empty URL regex, five-second shield (part 1 §4). */
export const DEFAULT_REGION_RULE: {
  readonly isBlack: true;
  readonly positions: readonly number[];
  readonly urlRegex: '';
  readonly blockType: 1;
} = Object.freeze({
  isBlack: true,
  // Frozen so that a form spreading the default cannot push into the shared array.
  positions: Object.freeze([] as number[]),
  urlRegex: '',
  blockType: BLOCK_TYPES.fiveSecondShield,
});

/** Where a domain's automatic certificate stands (routes/auto-certificates.ts). */
export const AUTO_CERT_STATUSES = ['pending', 'issuing', 'valid', 'failed'] as const;
export const autoCertStatusSchema = z.enum(AUTO_CERT_STATUSES);
export type AutoCertStatus = z.infer<typeof autoCertStatusSchema>;
