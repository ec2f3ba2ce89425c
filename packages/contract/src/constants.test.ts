import { describe, expect, it } from 'vitest';
import {
  CHART_COLORS,
  CHART_LABELS,
  CHART_PALETTE,
  DASHBOARD_CARD_IDS,
  FILE_TYPE_GROUPS,
  PAGE_DEFAULT,
  PAGE_SIZE_CHOICES,
  PAGE_SIZE_CHOICES_LARGE,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  QPS_PAGE_SIZE,
  STATUS_CODE_FILTERS,
  STATUS_CODE_FILTERS_NO_903,
  TOKEN_COOKIE_PREFIX,
  TOP_LIST_IDS,
  TRACKED_STATUS_CODES,
  TRAFFIC_REPORT_PAGE_SIZES,
} from './index.js';

const HEX = /^#[0-9a-f]{6}$/;

describe('CHART_PALETTE', () => {
  it('has 21 unique valid hex colours', () => {
    expect(CHART_PALETTE).toHaveLength(21);
    for (const colour of CHART_PALETTE) expect(colour).toMatch(HEX);
    expect(new Set(CHART_PALETTE.map((c) => c.toLowerCase())).size).toBe(21);
  });

  it('pass, drop and rule-type colours are valid and distinct', () => {
    const colours = Object.values(CHART_COLORS);
    for (const colour of colours) expect(colour).toMatch(HEX);
    expect(new Set(colours).size).toBe(3);
  });

  it('labels pass and drop with the spec texts', () => {
    expect(CHART_LABELS.pass.en_US).toBe('allowed traffic');
    expect(CHART_LABELS.drop.en_US).toBe('blocked traffic');
  });
});

describe('paging', () => {
  it('has the spec defaults and choices', () => {
    expect(PAGE_DEFAULT).toBe(1);
    expect(PAGE_SIZE_DEFAULT).toBe(10);
    expect(PAGE_SIZE_MAX).toBe(500);
    expect(PAGE_SIZE_CHOICES).toEqual([25, 50, 75, 100]);
    expect(PAGE_SIZE_CHOICES_LARGE).toEqual([25, 50, 75, 100, 200, 500]);
    expect(TRAFFIC_REPORT_PAGE_SIZES).toEqual([25, 50, 100, 200, 500]);
  });

  it('offers page sizes ascending and within PAGE_SIZE_MAX', () => {
    for (const list of [PAGE_SIZE_CHOICES, PAGE_SIZE_CHOICES_LARGE, TRAFFIC_REPORT_PAGE_SIZES]) {
      expect([...list]).toEqual([...list].sort((a, b) => a - b));
      expect(new Set(list).size).toBe(list.length);
      for (const size of list) expect(size).toBeLessThanOrEqual(PAGE_SIZE_MAX);
    }
    expect(PAGE_SIZE_DEFAULT).toBeLessThanOrEqual(PAGE_SIZE_MAX);
  });

  it('the QPS page size is above PAGE_SIZE_MAX, so its call cannot use pageQuery', () => {
    expect(QPS_PAGE_SIZE).toBe(26_784);
    expect(QPS_PAGE_SIZE).toBeGreaterThan(PAGE_SIZE_MAX);
  });
});

describe('lists of the spec', () => {
  it('status codes', () => {
    expect(STATUS_CODE_FILTERS).toEqual([400, 403, 500, 502, 504, 903, 929]);
    expect(STATUS_CODE_FILTERS_NO_903).toEqual(STATUS_CODE_FILTERS.filter((c) => c !== 903));
    expect(TRACKED_STATUS_CODES).toEqual([
      200, 206, 301, 302, 400, 403, 404, 444, 499, 500, 502, 503, 504, 903, 904, 929, 978,
    ]);
  });

  it('ids and prefixes', () => {
    expect(DASHBOARD_CARD_IDS).toEqual({ requestInfo: 3, ipInfo: 4, statusInfo: 5, blacklistInfo: 14, blockInfo: 15 });
    expect(Object.values(TOP_LIST_IDS)).toEqual([11, 12, 14, 18, 19, 20, 21, 22, 23, 24, 25]);
    expect(TOKEN_COOKIE_PREFIX).toEqual({ user: 'u_', client: 'c_', admin: 'a_' });
  });

  it('file type groups', () => {
    expect(FILE_TYPE_GROUPS).toEqual({
      image: ['gif', 'png', 'jpg', 'jpeg', 'bmp'],
      page: ['html', 'htm', 'shtml', 'js', 'css', 'woff2'],
      audioVideo: ['mp3', 'wma', 'flv', 'mp4', 'wmv'],
      file: ['ipa', 'apk'],
    });
  });
});
