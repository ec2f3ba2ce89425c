import { describe, expect, it } from 'vitest';
import { checkErrorExtra, ERROR_EXTRA } from './error-extra.js';
import {
  DEFAULT_ERROR_MESSAGE,
  ERROR_CATALOGUE,
  ERROR_CODES,
  ERROR_FAMILY_STATUS,
  type ErrorCode,
  type ErrorFamily,
  errorMessage,
  errorStatus,
  INVALID_LICENSE_KEY_MESSAGE,
  isErrorCode,
  PORT_MAPPING_MESSAGE,
} from './errors.js';
import { formatMessage, LOCALES } from './locale.js';

// Part 1 §8, verbatim.
const SPEC_TEXTS: Record<ErrorCode, string> = {
  101001: 'OK',
  101002: 'Unknown Error',
  101003: 'Parameter Error',
  101004: 'API Path Invalid',
  101005: 'Database Execution Error',
  101006: 'Invalid DNS Setting',
  101007: 'Proxy Connection Failed',
  101008: 'Account Is Not Enabled',
  101009: 'Multiple Errors',
  101010: 'DNS Execution Error',
  101011: 'Inconsistent Ports',
  101012: 'Failed To Auth The Credential',
  101013: 'Invalid Token',
  101014: 'Token Expired',
  101015: 'Revoke Token Failed',
  101016: 'Refresh Token Failed',
  101017: 'Duplicate Email',
  101018: 'Permission Denied',
  101019: 'License Expired',
  101020: 'Illegal Email Settings',
  101021: 'Illegal Telegram Token',
  101022: 'License Does Not Exist',
  101023: 'Illegal Port Type',
  101024: 'Invalid License Server',
  101025: 'Duplicated data',
  101029: 'number of items exceeds limit',
  101030: 'number of characters exceeds limit',
  201001: 'Please Remove Nodes In This Zone',
  201002: 'Zone Name Already Exists',
  201003: 'number of regions exceeds limit',
  202001: 'Node Communication Error',
  202002: 'nodes exceed upper limit',
  202003: 'Node Exists In Group',
  202004: 'Node Exists In Virtual Node',
  202005: 'Port Type 4 In Use',
  202006: 'Invalid Node Time',
  202008: 'Node Version Does Not match',
  203001: 'Unable To Delete Active Group',
  203002: 'Site Is In Use',
  203003: 'grouped nodes reached limit',
  204001: 'Layer 4 Group Is In Use',
  204002: 'Product Is In Use',
  204003: 'product sites exceed limit',
  205001: 'sites exceed limit',
  205002: 'Site Status Not Allowed To Be Set',
  205003: 'The Site In Use',
  205004: 'Site Has L4 Port Settings',
  205005: 'Site Has An L7 Domain Name Setting',
  205006: 'Please Lift Traffic Restrictions',
  205007: 'upper limit of redirect rules is 3,000',
  206001: 'Virtual Node In Use',
  301001: 'Invalid Certificate Name',
  401001: 'Unable To Enable Duplicate Domains',
  401002: 'domain names exceed limit',
  401003: 'Illegal Port Mapping Settings',
  401004: 'Auto SSL exceeds limit',
  401007: 'Port Counts Exceeds Limit',
  401008: 'Upstream without enabled',
  601001: 'simultaneous download quantity reached limit ({num} records)',
  601002: 'daily download limit reached ({num} records)',
  701001: 'Site auth group in use',
  900001: 'Illegal License',
  10102502: 'Duplicate keys are not allowed',
};

// The family the brief assigns to each code.
const FAMILY_OF: Record<ErrorFamily, readonly ErrorCode[]> = {
  ok: [101001],
  parameter: [101003, 101006, 101011, 101020, 101021, 101023, 202006, 301001, 401003, 401008],
  multiple: [101009],
  auth: [101012, 101013, 101014, 101015, 101016],
  permission: [101008, 101018, 205002],
  licence: [101019, 101022, 900001],
  notFound: [101004],
  conflict: [
    101017, 101025, 10102502, 201001, 201002, 202003, 202004, 202005, 202008, 203001, 203002, 204001, 204002, 205003,
    205004, 205005, 205006, 206001, 401001, 701001,
  ],
  limit: [101029, 101030, 201003, 202002, 203003, 204003, 205001, 205007, 401002, 401004, 401007],
  rate: [601001, 601002],
  upstream: [101007, 101010, 101024, 202001],
  internal: [101002, 101005],
};

describe('ERROR_CATALOGUE', () => {
  it('holds exactly the 63 codes of part 1 §8 and part 2 §8, ascending', () => {
    const expected = Object.keys(SPEC_TEXTS)
      .map(Number)
      .sort((a, b) => a - b);
    expect(ERROR_CODES).toEqual(expected);
    expect(ERROR_CODES).toHaveLength(63);
  });

  it('gives every code the status of its family', () => {
    for (const code of ERROR_CODES) {
      const entry = ERROR_CATALOGUE[code];
      expect(entry.status, String(code)).toBe(ERROR_FAMILY_STATUS[entry.family]);
      expect(errorStatus(code)).toBe(entry.status);
    }
  });

  it('puts every code in the family the brief assigns', () => {
    const assigned = Object.values(FAMILY_OF).flat();
    expect([...assigned].sort((a, b) => a - b)).toEqual([...ERROR_CODES]);
    for (const [family, codes] of Object.entries(FAMILY_OF)) {
      for (const code of codes) expect(ERROR_CATALOGUE[code].family, String(code)).toBe(family);
    }
  });

  it('maps the families to these statuses', () => {
    expect(ERROR_FAMILY_STATUS).toEqual({
      ok: 200,
      parameter: 400,
      multiple: 400,
      auth: 401,
      permission: 403,
      licence: 403,
      notFound: 404,
      conflict: 409,
      limit: 422,
      rate: 429,
      upstream: 502,
      internal: 500,
    });
    expect(errorStatus(101001)).toBe(200);
    expect(errorStatus(101003)).toBe(400);
    expect(errorStatus(101014)).toBe(401);
    expect(errorStatus(101018)).toBe(403);
    expect(errorStatus(900001)).toBe(403);
    expect(errorStatus(101004)).toBe(404);
    expect(errorStatus(10102502)).toBe(409);
    expect(errorStatus(205007)).toBe(422);
    expect(errorStatus(601002)).toBe(429);
    expect(errorStatus(101005)).toBe(500);
    expect(errorStatus(202001)).toBe(502);
  });

  it('has a non-empty message and a "when" in every locale for every code', () => {
    for (const code of ERROR_CODES) {
      const entry = ERROR_CATALOGUE[code];
      for (const locale of LOCALES) expect(entry.message[locale].trim(), `${code} ${locale}`).not.toBe('');
      expect(entry.when.trim()).not.toBe('');
    }
  });

  it('uses the English text of the spec', () => {
    for (const code of ERROR_CODES) expect(ERROR_CATALOGUE[code].message.en_US, String(code)).toBe(SPEC_TEXTS[code]);
  });

  it('translates rather than copies: Chinese texts differ from the English except for bare codes', () => {
    for (const code of ERROR_CODES) {
      const { en_US, zh_CN, zh_TW } = ERROR_CATALOGUE[code].message;
      expect(zh_CN, String(code)).not.toBe(en_US);
      expect(zh_TW, String(code)).not.toBe(en_US);
      expect(zh_CN, String(code)).toMatch(/[\u4e00-\u9fff]/);
      expect(zh_TW, String(code)).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('keeps {num} in all locales of 601001 and 601002', () => {
    for (const code of [601001, 601002] as const) {
      for (const locale of LOCALES) expect(ERROR_CATALOGUE[code].message[locale]).toContain('{num}');
    }
  });
});

describe('errorMessage', () => {
  it('fills {num}', () => {
    expect(errorMessage(601001, 'en_US', { num: 3 })).toBe('simultaneous download quantity reached limit (3 records)');
    expect(errorMessage(601002, 'en_US', { num: 20 })).toBe('daily download limit reached (20 records)');
    expect(errorMessage(601001, 'zh_CN', { num: 3 })).toBe('同时下载数量已达上限（3 条记录）');
    expect(errorMessage(601002, 'zh_TW', { num: 20 })).toBe('已達每日下載上限（20 筆記錄）');
  });

  it('leaves the placeholder when no value is given', () => {
    expect(errorMessage(601001, 'en_US')).toBe('simultaneous download quantity reached limit ({num} records)');
  });

  it('returns the localized text of plain codes', () => {
    expect(errorMessage(101003, 'en_US')).toBe('Parameter Error');
    expect(errorMessage(101003, 'zh_CN')).toBe('参数错误');
    expect(errorMessage(101003, 'zh_TW')).toBe('參數錯誤');
    expect(errorMessage(101018, 'zh_TW')).toBe('權限不足');
  });
});

describe('isErrorCode', () => {
  it('accepts catalogue codes', () => {
    expect(isErrorCode(101001)).toBe(true);
    expect(isErrorCode(10102502)).toBe(true);
    expect(isErrorCode(601002)).toBe(true);
  });

  it('rejects unknown numbers, strings and other values', () => {
    expect(isErrorCode(999)).toBe(false);
    expect(isErrorCode(101026)).toBe(false);
    expect(isErrorCode(202007)).toBe(false);
    expect(isErrorCode('101001')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode(101001.5)).toBe(false);
    expect(isErrorCode(Number.NaN)).toBe(false);
    expect(isErrorCode(null)).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
  });
});

describe('special messages', () => {
  it('DEFAULT_ERROR_MESSAGE is the spec text', () => {
    expect(DEFAULT_ERROR_MESSAGE.en_US).toBe('Some Error Occurred');
    expect(DEFAULT_ERROR_MESSAGE.zh_CN).toBe('发生错误');
    expect(DEFAULT_ERROR_MESSAGE.zh_TW).toBe('發生錯誤');
  });

  it('PORT_MAPPING_MESSAGE keeps {port} in every locale and fills it', () => {
    for (const locale of LOCALES) expect(PORT_MAPPING_MESSAGE[locale]).toContain('{port}');
    expect(formatMessage(PORT_MAPPING_MESSAGE.en_US, { port: 8080 })).toBe(
      'Illegal port mapping settings: port 8080 is not available',
    );
  });

  it('INVALID_LICENSE_KEY_MESSAGE is localized', () => {
    expect(INVALID_LICENSE_KEY_MESSAGE).toEqual({
      en_US: 'Invalid License Key',
      zh_CN: '授权密钥无效',
      zh_TW: '授權金鑰無效',
    });
  });
});

describe('ERROR_EXTRA', () => {
  it('gives a schema only to catalogue codes, and refuses an extra for a code without one', () => {
    for (const code of Object.keys(ERROR_EXTRA)) expect(Object.hasOwn(ERROR_CATALOGUE, code)).toBe(true);
    expect(checkErrorExtra(201002, undefined)).toEqual({ ok: true });
    expect(checkErrorExtra(201002, { reason: 'x' }).ok).toBe(false);
    expect(checkErrorExtra(401003, { port: 80, portType: 'https' })).toEqual({ ok: true });
    expect(checkErrorExtra(401003, 'port 80 is an https listen port').ok).toBe(false);
  });
});
