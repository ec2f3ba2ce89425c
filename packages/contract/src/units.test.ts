import { describe, expect, it } from 'vitest';
import { bitsToBytes, convertUnit, formatBytes, formatBytesText, isUnit, UNITS } from './units.js';

describe('UNITS', () => {
  it('lists the spec units in order', () => {
    expect(UNITS).toEqual(['Byte', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB']);
  });

  it.each([
    ['KB', true],
    ['YB', true],
    ['kb', false],
    ['B', false],
    ['KiB', false],
  ])('isUnit(%j) → %s', (unit, expected) => {
    expect(isUnit(unit)).toBe(expected);
  });
});

describe('formatBytes', () => {
  it.each<[number, number, string, string]>([
    [0, 0, 'Byte', '0.00 Byte'],
    [1, 1, 'Byte', '1.00 Byte'],
    [0.5, 0.5, 'Byte', '0.50 Byte'],
    [999, 999, 'Byte', '999.00 Byte'],
    [999.994, 999.99, 'Byte', '999.99 Byte'],
    [999.996, 1, 'KB', '1.00 KB'],
    [1000, 1, 'KB', '1.00 KB'],
    [1500, 1.5, 'KB', '1.50 KB'],
    [1234, 1.23, 'KB', '1.23 KB'],
    [1235, 1.24, 'KB', '1.24 KB'],
    [999_999, 1, 'MB', '1.00 MB'],
    [999_994, 999.99, 'KB', '999.99 KB'],
    [1e6, 1, 'MB', '1.00 MB'],
    [1e9, 1, 'GB', '1.00 GB'],
    [1e12, 1, 'TB', '1.00 TB'],
    [1e15, 1, 'PB', '1.00 PB'],
    [1e18, 1, 'EB', '1.00 EB'],
    [1e21, 1, 'ZB', '1.00 ZB'],
    [1e24, 1, 'YB', '1.00 YB'],
    [2.5e27, 2500, 'YB', '2500.00 YB'],
    [-1500, -1.5, 'KB', '-1.50 KB'],
  ])('%d B → %d %s (%j)', (bytes, value, unit, text) => {
    expect(formatBytes(bytes)).toEqual({ value, unit });
    expect(formatBytesText(bytes)).toBe(text);
  });

  it.each<[number, number, number, string, string]>([
    [1234, 0, 1, 'KB', '1 KB'],
    [1234, 3, 1.234, 'KB', '1.234 KB'],
    [1_234_567, 1, 1.2, 'MB', '1.2 MB'],
  ])('%d B with %d decimals → %d %s', (bytes, decimals, value, unit, text) => {
    expect(formatBytes(bytes, decimals)).toEqual({ value, unit });
    expect(formatBytesText(bytes, decimals)).toBe(text);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY])('refuses %d', (bytes) => {
    expect(() => formatBytes(bytes)).toThrow(RangeError);
  });
});

describe('bitsToBytes', () => {
  it.each([
    [0, 0],
    [8, 1],
    [4, 0.5],
    [8000, 1000],
    [12_000, 1500],
  ])('%d bits → %d bytes', (bits, bytes) => {
    expect(bitsToBytes(bits)).toBe(bytes);
  });

  it('8000 bits read as 1.00 KB', () => {
    expect(formatBytesText(bitsToBytes(8000))).toBe('1.00 KB');
  });
});

describe('convertUnit', () => {
  it.each<[number, string, string, number]>([
    [1, 'KB', 'Byte', 1000],
    [1000, 'Byte', 'KB', 1],
    [1500, 'Byte', 'KB', 1.5],
    [1.5, 'GB', 'MB', 1500],
    [1, 'YB', 'Byte', 1e24],
    [2500, 'MB', 'GB', 2.5],
    [1, 'MB', 'KB', 1000],
    [42, 'TB', 'TB', 42],
    [1, 'Byte', 'MB', 0.000001],
  ])('%d %s → %d %s', (value, from, to, expected) => {
    expect(convertUnit(value, from, to)).toBe(expected);
  });

  it.each([
    ['kb', 'MB'],
    ['KB', 'B'],
    ['KiB', 'Byte'],
    ['', 'KB'],
  ])('%j → %j throws "Invalid units provided."', (from, to) => {
    expect(() => convertUnit(1, from, to)).toThrow(new Error('Invalid units provided.'));
  });
});
