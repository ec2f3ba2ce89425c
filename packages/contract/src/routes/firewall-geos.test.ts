import { describe, expect, it } from 'vitest';
import { edgeGeoDatabaseSchema, edgeGeoRuleSchema, splitGeoIds } from '../edge/geo.js';
import { GEO_REGIONS } from '../geo.js';
import { continentOf } from '../geo-continents.js';
import { geoIdProblem, geoRuleInputSchema } from './firewall-geos.js';

const issueKeys = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);
const rule = { isBlack: true, geoIDs: ['CN'], urlRegex: '.*', blockType: 10 };

describe('geo region ids', () => {
  it.each(['CN', 'US', 'XK', '1816670', '4294967295'])('accepts %s', (id) => {
    expect(geoIdProblem(id)).toBeNull();
  });
  it.each(['cn', 'ZZ', 'EU', 'CHN', '', '0', '0123', '4294967296', '12345678901', 'CN '])('refuses %j', (id) => {
    expect(geoIdProblem(id)).toBe('wrongFormat');
  });
  it('splits a rule’s ids into countries and cities as the edge reads them', () => {
    expect(splitGeoIds(['CN', '1816670', 'US'])).toEqual({ countries: ['CN', 'US'], cities: [1816670] });
  });
  it('knows the continent of every region of the list', () => {
    expect(GEO_REGIONS.filter((r) => continentOf(r.alpha2) === '').map((r) => r.alpha2)).toEqual([]);
    expect([continentOf('cn'), continentOf('FR'), continentOf('BR'), continentOf('AQ')]).toEqual([
      'AS',
      'EU',
      'SA',
      'AN',
    ]);
  });
});

describe('geo rule input', () => {
  it('takes a rule, enabled by default', () => {
    expect(geoRuleInputSchema.parse(rule)).toEqual({ ...rule, enabled: true, memo: '' });
  });
  it.each([
    [{ ...rule, geoIDs: [] }, 'geoIDs:required'],
    [{ ...rule, geoIDs: undefined }, 'geoIDs:required'],
    [{ ...rule, geoIDs: ['XX'] }, 'geoIDs.0:wrongFormat'],
    [{ ...rule, isBlack: undefined }, 'isBlack:required'],
    [{ ...rule, urlRegex: '' }, 'urlRegex:required'],
    [{ ...rule, blockType: 6 }, 'blockType:wrongFormat'],
    [{ ...rule, blockType: 13 }, 'blockType:wrongFormat'],
  ])('refuses %j (%s)', (input, key) => {
    expect(issueKeys(geoRuleInputSchema.safeParse(input))).toEqual([key]);
  });
});

describe('the geo part of the data plane', () => {
  const edgeRule = { id: 1, url: '.*', white: false, countries: ['CN'], cities: [1816670], action: 'deny' };
  it('takes a rule and a database hash', () => {
    expect(edgeGeoRuleSchema.safeParse(edgeRule).success).toBe(true);
    expect(edgeGeoDatabaseSchema.safeParse('a'.repeat(64)).success).toBe(true);
    expect(edgeGeoDatabaseSchema.safeParse(null).success).toBe(true);
  });
  it.each([
    { ...edgeRule, countries: ['cn'] },
    { ...edgeRule, cities: [0] },
    { ...edgeRule, action: 'allow' },
    { ...edgeRule, url: '(x' },
    { ...edgeRule, extra: 1 },
  ])('refuses %j', (input) => {
    expect(edgeGeoRuleSchema.safeParse(input).success).toBe(false);
  });
  it('refuses a database that is not a SHA-256 in hex', () => {
    for (const value of ['A'.repeat(64), 'a'.repeat(63), '../x']) {
      expect(edgeGeoDatabaseSchema.safeParse(value).success).toBe(false);
    }
  });
});
