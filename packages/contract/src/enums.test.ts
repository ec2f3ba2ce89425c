import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_STATUSES,
  accountStatusSchema,
  BLOCK_TYPE_LABELS,
  BLOCK_TYPES,
  blockTypeLabel,
  blockTypeSchema,
  DEFAULT_REGION_RULE,
  DOMAIN_STATUS,
  domainStatusSchema,
  normalizeBlockType,
  SITE_ACCOUNT_STATUSES,
  siteAccountStatusSchema,
} from './enums.js';

describe('block types', () => {
  it('numbers the modes as the spec does', () => {
    expect(BLOCK_TYPES).toEqual({ fiveSecondShield: 1, code: 2, clickToVerify: 3, redirect: 4, sliderCaptcha: 5 });
  });

  it('maps legacy 6–9 to 1–4', () => {
    expect(normalizeBlockType(6)).toEqual({ blockType: 1, legacy: true });
    expect(normalizeBlockType(7)).toEqual({ blockType: 2, legacy: true });
    expect(normalizeBlockType(8)).toEqual({ blockType: 3, legacy: true });
    expect(normalizeBlockType(9)).toEqual({ blockType: 4, legacy: true });
  });

  it('keeps 1–5 as they are', () => {
    for (const n of [1, 2, 3, 4, 5]) expect(normalizeBlockType(n)).toEqual({ blockType: n, legacy: false });
  });

  it('throws on unknown values', () => {
    expect(() => normalizeBlockType(10)).toThrow(RangeError);
    expect(() => normalizeBlockType(0)).toThrow('unknown block type 0');
    expect(() => normalizeBlockType(-1)).toThrow(RangeError);
    expect(() => normalizeBlockType(1.5)).toThrow(RangeError);
    expect(() => normalizeBlockType(Number.NaN)).toThrow(RangeError);
  });

  it('schema accepts 1–9 only', () => {
    for (let n = 1; n <= 9; n++) expect(blockTypeSchema.safeParse(n).success).toBe(true);
    for (const bad of [0, 10, 1.5, '1', null]) expect(blockTypeSchema.safeParse(bad).success).toBe(false);
  });

  it('labels legacy types with a suffix', () => {
    expect(blockTypeLabel(1, 'en_US')).toBe('Five-Second Shield');
    expect(blockTypeLabel(6, 'en_US')).toBe('Five-Second Shield (legacy)');
    expect(blockTypeLabel(9, 'zh_CN')).toBe('重定向验证（旧版）');
    expect(blockTypeLabel(8, 'zh_TW')).toBe('點擊驗證（舊版）');
    expect(blockTypeLabel(5, 'zh_TW')).toBe(BLOCK_TYPE_LABELS[5].zh_TW);
  });
});

describe('statuses', () => {
  it('lists the account statuses', () => {
    expect(ACCOUNT_STATUSES).toEqual(['normal', 'pause', 'lock', 'expired']);
    expect(accountStatusSchema.parse('lock')).toBe('lock');
    expect(accountStatusSchema.safeParse('limit').success).toBe(false);
  });

  it('lists the second status set', () => {
    expect(SITE_ACCOUNT_STATUSES).toEqual(['normal', 'pause', 'limit']);
    expect(siteAccountStatusSchema.parse('limit')).toBe('limit');
    expect(siteAccountStatusSchema.safeParse('lock').success).toBe(false);
  });

  it('uses 1 and 0 for domain status', () => {
    expect(DOMAIN_STATUS).toEqual({ enabled: 1, disabled: 0 });
    expect(domainStatusSchema.parse(1)).toBe(1);
    expect(domainStatusSchema.parse(0)).toBe(0);
    expect(domainStatusSchema.safeParse(2).success).toBe(false);
    expect(domainStatusSchema.safeParse(true).success).toBe(false);
  });
});

describe('DEFAULT_REGION_RULE', () => {
  it('is a black list with no positions, empty URL regex and block type 1', () => {
    expect(DEFAULT_REGION_RULE).toEqual({ isBlack: true, positions: [], urlRegex: '', blockType: 1 });
  });

  it('cannot be mutated through its positions', () => {
    expect(() => (DEFAULT_REGION_RULE.positions as number[]).push(1)).toThrow(TypeError);
    expect(DEFAULT_REGION_RULE.positions).toEqual([]);
  });
});
