import { UNIT_BASE, UNIT_DECIMALS } from './constants.js';

/**
 * Traffic and storage units (spec part 1 §9): decimal steps of 1000, two decimals by default,
 * and bit counts divided by 8 before they are shown as bytes.
 */

export { UNIT_BASE, UNIT_DECIMALS };
export const UNITS = ['Byte', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;
export type Unit = (typeof UNITS)[number];

export interface FormattedBytes {
  readonly value: number;
  readonly unit: Unit;
}

export function isUnit(value: unknown): value is Unit {
  return typeof value === 'string' && (UNITS as readonly string[]).includes(value);
}

/**
 * The largest unit in which `bytes` is at least 1 (Byte below 1000), rounded to `decimals`.
 * A value that rounds up to 1000 moves to the next unit, so 999 999 B is 1.00 MB, not 1000.00 KB.
 * Negative values are scaled by their magnitude and keep their sign.
 */
export function formatBytes(bytes: number, decimals = UNIT_DECIMALS): FormattedBytes {
  if (!Number.isFinite(bytes)) throw new RangeError(`Cannot format ${bytes} bytes.`);
  const magnitude = Math.abs(bytes);
  let index = magnitude < UNIT_BASE ? 0 : Math.floor(Math.log10(magnitude) / 3);
  index = Math.min(index, UNITS.length - 1);
  // log10 can land one step off near exact powers of 1000 (floating error), so settle the index exactly.
  while (index > 0 && magnitude < UNIT_BASE ** index) index--;
  while (index < UNITS.length - 1 && magnitude >= UNIT_BASE ** (index + 1)) index++;

  let value = round(bytes / UNIT_BASE ** index, decimals);
  if (Math.abs(value) >= UNIT_BASE && index < UNITS.length - 1) {
    index++;
    value = round(bytes / UNIT_BASE ** index, decimals);
  }
  return { value, unit: UNITS[index] ?? 'Byte' };
}

/** `formatBytes` as display text with exactly `decimals` decimals, e.g. `1.50 KB`. */
export function formatBytesText(bytes: number, decimals = UNIT_DECIMALS): string {
  const { value, unit } = formatBytes(bytes, decimals);
  return `${value.toFixed(decimals)} ${unit}`;
}

/** Traffic counters come in bits; bytes are bits / 8. */
export function bitsToBytes(bits: number): number {
  return bits / 8;
}

/** Converts between byte units, e.g. `convertUnit(1.5, 'GB', 'MB')` is 1500. */
export function convertUnit(value: number, from: string, to: string): number {
  const fromIndex = (UNITS as readonly string[]).indexOf(from);
  const toIndex = (UNITS as readonly string[]).indexOf(to);
  if (fromIndex < 0 || toIndex < 0) throw new Error('Invalid units provided.');
  const steps = fromIndex - toIndex;
  // Divide by an exact power rather than multiply by 1000 ** -n, which is not exact in binary.
  return steps >= 0 ? value * UNIT_BASE ** steps : value / UNIT_BASE ** -steps;
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
