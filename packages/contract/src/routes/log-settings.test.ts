import { describe, expect, it } from 'vitest';
import { permissionOf } from '../permissions.js';
import {
  deleteLogParts,
  isLogPart,
  listLogParts,
  logPartOf,
  logPartRefSchema,
  logPartStart,
  logRetentionSchema,
  logSettingRoutes,
} from './log-settings.js';

type Issues = { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
const issueKeys = (result: Issues) => (result.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

describe('log parts', () => {
  it.each(['20240229', '19700101', '20261110', '99991231'])('takes the real day %s', (part) => {
    expect(isLogPart(part)).toBe(true);
  });
  it.each([
    '20230229',
    '20241301',
    '20240100',
    '20240431',
    '19691231',
    '2024010',
    '202401011',
    ' 20240101',
    '2024-01-01',
    '2024010x',
    '١٢٣٤٥٦٧٨',
  ])('refuses %j', (part) => {
    expect(isLogPart(part)).toBe(false);
  });
  it('names the UTC day of a second and the second a day starts', () => {
    expect(logPartOf(Date.UTC(2026, 10, 10, 23, 59, 59) / 1000)).toBe('20261110');
    expect(logPartOf(Date.UTC(2026, 10, 11) / 1000)).toBe('20261111');
    expect(logPartStart('20261111')).toBe(Date.UTC(2026, 10, 11) / 1000);
  });
  it('takes a table of the store and a day, and nothing else', () => {
    expect(logPartRefSchema.parse({ table: 'rollup_5m', part: '20261110' })).toEqual({
      table: 'rollup_5m',
      part: '20261110',
    });
    expect(issueKeys(logPartRefSchema.safeParse({ table: 'batches', part: '20261110' }))).toEqual([
      'table:invalidValue',
    ]);
    expect(issueKeys(logPartRefSchema.safeParse({ table: 'events; DROP TABLE events', part: '1' }))).toEqual([
      'table:invalidValue',
      'part:wrongFormat',
    ]);
    expect(issueKeys(logPartRefSchema.safeParse({ table: 'events', part: 20261110 }))).toEqual(['part:invalid_type']);
    expect(issueKeys(logPartRefSchema.safeParse({}))).toEqual(['table:required', 'part:required']);
  });
  it('deletes 1 to 500 parts at once', () => {
    const body = deleteLogParts.request.body;
    const item = { table: 'events', part: '20261110' };
    expect(body.safeParse({ items: Array(500).fill(item) }).success).toBe(true);
    expect(body.safeParse({ items: [] }).error?.issues.map((i) => [i.path.join('.'), i.code])).toEqual([
      ['items', 'too_small'],
    ]);
    expect(
      body.safeParse({ items: Array(501).fill(item) }).error?.issues.map((i) => [i.path.join('.'), i.code]),
    ).toEqual([['items', 'too_big']]);
    expect(body.safeParse({}).success).toBe(false);
  });
  it('deletes a part named twice once', () => {
    const items = [
      { table: 'events', part: '20261110' },
      { table: 'rollup_1m', part: '20261110' },
      { table: 'events', part: '20261110' },
    ];
    expect(deleteLogParts.request.body.parse({ items })).toEqual({ items: items.slice(0, 2) });
  });
  it('filters the list by one table of the store', () => {
    const query = listLogParts.request.query;
    expect(query.parse({ table: 'dims_1h' })).toEqual({ page: 1, pageSize: 10, table: 'dims_1h' });
    expect(query.safeParse({ table: 'batches' }).success).toBe(false);
  });
});

describe('log retention', () => {
  it('takes the defaults and the bounds', () => {
    for (const value of [
      { rawRetentionDays: 30, rollupRetentionDays: 400 },
      { rawRetentionDays: 1, rollupRetentionDays: 62 },
      { rawRetentionDays: 365, rollupRetentionDays: 1100 },
      { rawRetentionDays: 100, rollupRetentionDays: 100 },
    ]) {
      expect(logRetentionSchema.parse(value)).toEqual(value);
    }
  });
  it.each([
    [{ rawRetentionDays: 0, rollupRetentionDays: 400 }, ['rawRetentionDays:too_small']],
    [{ rawRetentionDays: 366, rollupRetentionDays: 400 }, ['rawRetentionDays:too_big']],
    [{ rawRetentionDays: 1.5, rollupRetentionDays: 400 }, ['rawRetentionDays:invalid_type']],
    [{ rawRetentionDays: 30, rollupRetentionDays: 61 }, ['rollupRetentionDays:too_small']],
    [{ rawRetentionDays: 30, rollupRetentionDays: 1101 }, ['rollupRetentionDays:too_big']],
    [{ rawRetentionDays: 200, rollupRetentionDays: 199 }, ['rollupRetentionDays:tooSmall']],
    [{ rawRetentionDays: 30 }, ['rollupRetentionDays:invalid_type']],
  ])('refuses %j', (value, expected) => {
    const result = logRetentionSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(
      (result.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.code === 'custom' ? i.message : i.code}`),
    ).toEqual(expected);
  });
  it('says how many days the rollups need at least when fewer than the raw events', () => {
    const issue = logRetentionSchema.safeParse({ rawRetentionDays: 200, rollupRetentionDays: 199 }).error?.issues[0];
    expect(issue && 'params' in issue ? issue.params : undefined).toEqual({ key: 'tooSmall', min: 200 });
  });
});

describe('the log setting calls', () => {
  it('read with the settings read key and write with the write key, operators only', () => {
    const keys = Object.values(logSettingRoutes).map((r) => [
      r.id,
      r.access.kind === 'tiers' && r.access.tiers,
      permissionOf(r),
    ]);
    expect(keys).toEqual([
      ['client.setting.log.get', ['client'], 'client.settings.read'],
      ['client.setting.log.update', ['client'], 'client.settings.write'],
      ['client.setting.log.export.get', ['client'], 'client.settings.read'],
      ['client.setting.log.export.update', ['client'], 'client.settings.write'],
      ['client.setting.log.parts', ['client'], 'client.settings.read'],
      ['client.setting.log.part.delete', ['client'], 'client.settings.write'],
      ['client.setting.log.parts.delete', ['client'], 'client.settings.write'],
    ]);
  });
});
