import { formatBytes, type Locale, UNIT_DECIMALS, type Unit } from '@rampart/contract';
import { LOCALE_TAGS } from '../../i18n/locale-tags';

/** How a statistic is shown: a count, bytes, bits per second, requests per second or a share. */
export type ValueKind = 'count' | 'bytes' | 'bitsPerSecond' | 'perSecond' | 'percent';

/** Bit-rate units beside the contract's byte units: the same steps of 1000 (spec part 1 §9). */
const BIT_RATE_UNITS: Readonly<Record<Unit, string>> = {
  Byte: 'bps',
  KB: 'Kbps',
  MB: 'Mbps',
  GB: 'Gbps',
  TB: 'Tbps',
  PB: 'Pbps',
  EB: 'Ebps',
  ZB: 'Zbps',
  YB: 'Ybps',
};

function decimal(value: number, locale: Locale, digits: number): string {
  return new Intl.NumberFormat(LOCALE_TAGS[locale], {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}

/** A whole count with the locale's grouping, e.g. 12,345. */
export function formatCount(value: number, locale: Locale): string {
  return new Intl.NumberFormat(LOCALE_TAGS[locale], { maximumFractionDigits: 0 }).format(value);
}

/**
 * A statistic as text in the locale: bytes and bit rates scaled by 1000 with the contract's
 * conversion (`formatBytes`) and two decimals, rates per second with two decimals, shares as a
 * percentage, counts whole.
 */
export function formatValue(value: number, kind: ValueKind, locale: Locale): string {
  switch (kind) {
    case 'bytes': {
      const scaled = formatBytes(value);
      return `${decimal(scaled.value, locale, UNIT_DECIMALS)} ${scaled.unit}`;
    }
    case 'bitsPerSecond': {
      // The byte conversion scales any quantity by 1000; only the unit names differ.
      const scaled = formatBytes(value);
      return `${decimal(scaled.value, locale, UNIT_DECIMALS)} ${BIT_RATE_UNITS[scaled.unit]}`;
    }
    case 'perSecond':
      return decimal(value, locale, UNIT_DECIMALS);
    case 'percent':
      return new Intl.NumberFormat(LOCALE_TAGS[locale], { style: 'percent', maximumFractionDigits: 1 }).format(value);
    default:
      return formatCount(value, locale);
  }
}

/** A share of a total (0 when the total is 0). */
export function shareOf(part: number, total: number): number {
  return total > 0 ? part / total : 0;
}
