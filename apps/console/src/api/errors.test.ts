import { describe, expect, it } from 'vitest';
import { ApiError, type MultiErrorEntry } from './client';
import { describeApiError } from './errors';

function replyError(code: number | undefined, serverMessage: string, extra?: unknown, errors?: MultiErrorEntry[]) {
  return new ApiError({ failure: 'reply', status: 400, code, message: serverMessage, serverMessage, extra, errors });
}

describe('describeApiError', () => {
  it('passes 101001 and cancelled calls silently', () => {
    expect(describeApiError(replyError(101001, 'OK'), 'en_US')).toBeNull();
    expect(describeApiError(new DOMException('gone', 'AbortError'), 'en_US')).toBeNull();
  });

  it('lists each 101009 entry with its mapped message and targets', () => {
    const err = replyError(101009, 'Multiple Errors', undefined, [
      { code: 401001, message: 'server text', targets: ['a.example'] },
      { code: 888888, message: 'only the server knows', targets: ['b.example', 'c.example'] },
    ]);
    expect(describeApiError(err, 'zh_TW')).toEqual({
      message: '發生多個錯誤',
      details: [
        { code: 401001, message: '無法啟用重複的網域', targets: ['a.example'] },
        { code: 888888, message: 'only the server knows', targets: ['b.example', 'c.example'] },
      ],
    });
  });

  it('names the port of a 401003 from extra.port', () => {
    const err = replyError(401003, 'Illegal Port Mapping Settings', { port: 8443, portType: 'https' });
    expect(describeApiError(err, 'en_US')?.message).toBe('Illegal port mapping settings: port 8443 is not available');
  });

  it('falls back to the raw server message of a 401003 without a port', () => {
    const err = replyError(401003, 'mapping refused', 'port 8443 is a sentence, not a port');
    expect(describeApiError(err, 'en_US')?.message).toBe('mapping refused');
  });

  it('fills 601001 with 3 and 601002 with the account quota', () => {
    expect(describeApiError(replyError(601001, 'x'), 'en_US')?.message).toBe(
      'simultaneous download quantity reached limit (3 records)',
    );
    expect(describeApiError(replyError(601002, 'x'), 'zh_CN', { maxLogExportTimes: 12 })?.message).toBe(
      '已达每日下载上限（12 条记录）',
    );
  });

  it('shows the invalid-license-key message for 101003 with that extra, the catalogue text otherwise', () => {
    expect(describeApiError(replyError(101003, 'bad', 'invalid license key'), 'en_US')?.message).toBe(
      'Invalid License Key',
    );
    expect(describeApiError(replyError(101003, 'bad', { fields: [] }), 'en_US')?.message).toBe('Parameter Error');
  });

  it('uses the override code for 101025 when one is given', () => {
    expect(describeApiError(replyError(101025, 'dup'), 'en_US')?.message).toBe('Duplicated data');
    expect(describeApiError(replyError(101025, 'dup'), 'en_US', { duplicateCode: 10102502 })?.message).toBe(
      'Duplicate keys are not allowed',
    );
  });

  it('shows the server message for an unknown code and the default text for anything else', () => {
    expect(describeApiError(replyError(555555, 'custom text'), 'en_US')?.message).toBe('custom text');
    expect(describeApiError(new TypeError('boom'), 'zh_TW')?.message).toBe('發生錯誤');
  });
});
