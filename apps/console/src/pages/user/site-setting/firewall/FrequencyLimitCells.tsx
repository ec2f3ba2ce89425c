import type { AntiCCRule, IntervalLimit, Locale, SecondLimit } from '@rampart/contract';
import { useTranslation } from 'react-i18next';
import { LOCALE_TAGS, useLocale } from '../../../../i18n';

/**
 * The cell's text wraps between its words within this width: the table is laid out at its content's
 * width (FitTable), so a cell that may not wrap would widen it ("100,000/s, burst 100,000, block
 * 86,400 s" made the per-second list 37 px wider than its place at 1280 px).
 */
const LIMIT_CELL_WIDTH = 170;

/** A count as people read it in the interface language ("1,000,000"). */
export function formatCount(value: number, locale: Locale): string {
  return new Intl.NumberFormat(LOCALE_TAGS[locale]).format(value);
}

/** An interval limit's count and window: "100 requests / 60 s". */
export function IntervalLimitCell({ rule, width = LIMIT_CELL_WIDTH }: { rule: IntervalLimit; width?: number }) {
  const { t } = useTranslation('firewall');
  const [locale] = useLocale();
  return (
    <div style={{ whiteSpace: 'normal', width }}>
      {t('intervalCell', {
        count: rule.times,
        times: formatCount(rule.times, locale),
        seconds: formatCount(rule.seconds, locale),
      })}
    </div>
  );
}

/**
 * A per-second limit's rate, then its burst and block duration when they are not 0:
 * "5/s, burst 2, block 300 s".
 */
export function SecondLimitCell({ rule }: { rule: SecondLimit }) {
  const { t } = useTranslation('firewall');
  const [locale] = useLocale();
  const parts = [t('rateCell', { rate: formatCount(rule.rate, locale) })];
  if (rule.burst > 0) parts.push(t('burstCell', { burst: formatCount(rule.burst, locale) }));
  if (rule.blockSeconds > 0) parts.push(t('blockCell', { seconds: formatCount(rule.blockSeconds, locale) }));
  return <div style={{ whiteSpace: 'normal', width: LIMIT_CELL_WIDTH }}>{parts.join(t('cellSeparator'))}</div>;
}

/**
 * The anti-CC list has two limit cells beside its URL and mode: each wraps within 130 px
 * ("1,000,000 requests / 86,400 s" on two lines) so the list fits 1280 px with the sidebar open.
 */
const ANTI_CC_CELL_WIDTH = 130;

/** When an anti-CC rule challenges: "every request", or "30 requests / 60 s" as the interval limits. */
export function AntiCCFrequencyCell({ rule }: { rule: AntiCCRule }) {
  const { t } = useTranslation('firewall');
  if (rule.frequency === 'full')
    return <div style={{ whiteSpace: 'normal', width: ANTI_CC_CELL_WIDTH }}>{t('fullCell')}</div>;
  return <IntervalLimitCell rule={rule as unknown as IntervalLimit} width={ANTI_CC_CELL_WIDTH} />;
}

/** An anti-CC rule's error limit: "5 errors / 60 s". */
export function AntiCCErrorCell({ rule }: { rule: AntiCCRule }) {
  const { t } = useTranslation('firewall');
  const [locale] = useLocale();
  return (
    <div style={{ whiteSpace: 'normal', width: ANTI_CC_CELL_WIDTH }}>
      {t('errorCell', {
        count: rule.errorTimes,
        times: formatCount(rule.errorTimes, locale),
        seconds: formatCount(rule.errorSeconds, locale),
      })}
    </div>
  );
}
