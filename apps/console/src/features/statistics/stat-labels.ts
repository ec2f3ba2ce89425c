import type { TFunction } from 'i18next';

/** Status classes read the same in every language: they are written as the codes are. */
const STATUS_CLASSES: Readonly<Record<string, string>> = { s2xx: '2xx', s3xx: '3xx', s4xx: '4xx', s5xx: '5xx' };

type StatisticsT = TFunction<'statistics'>;

/** The name of a card's or a table's figure. */
export function figureLabel(t: StatisticsT, key: string): string {
  return STATUS_CLASSES[key] ?? t(`figures.${key}` as 'figures.requests');
}

/** The legend of a plotted value (pass and drop excepted: their labels are the contract's CHART_LABELS). */
export function seriesValueLabel(t: StatisticsT, key: string): string {
  return STATUS_CLASSES[key] ?? t(`seriesValues.${key}` as 'seriesValues.bytesOut');
}
