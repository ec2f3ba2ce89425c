import {
  BLOCK_SECONDS_MAX,
  FIREWALL_PRIORITY_MAX,
  FREQUENCY_BLOCK_TYPES,
  FREQUENCY_SECONDS_MAX,
  FREQUENCY_TIMES_MAX,
  SECOND_BURST_MAX,
  SECOND_RATE_MAX,
} from '@rampart/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../../i18n';
import { BlockTypeField, EnabledField, MemoField, NumberField, UrlField } from './FirewallFields';
import { formatCount } from './FrequencyLimitCells';
import type { FirewallFieldsProps } from './firewall-kinds';

/** The fields both limits have around their own numbers: URL, priority, mode (DENY is 929), switch, memo. */
function FrequencyLimitFields({ rules, children }: Pick<FirewallFieldsProps, 'rules'> & { children: ReactNode }) {
  const { t } = useTranslation('firewall');
  return (
    <>
      <UrlField name="urlRegex" rules={rules('urlRegex')} />
      {children}
      <NumberField
        name="priority"
        label={t('priority')}
        hint={t('form.priorityHint', { max: FIREWALL_PRIORITY_MAX })}
        rules={rules('priority')}
      />
      <BlockTypeField modes={FREQUENCY_BLOCK_TYPES} rules={rules('blockType')} hint={t('form.frequencyModeHint')} />
      <EnabledField />
      <MemoField rules={rules('memo')} />
    </>
  );
}

/** An interval limit's fields: the window and the requests an IP may make in it. */
export function IntervalLimitFields({ rules }: FirewallFieldsProps) {
  const { t } = useTranslation('firewall');
  const [locale] = useLocale();
  return (
    <FrequencyLimitFields rules={rules}>
      <NumberField
        name="seconds"
        label={t('seconds')}
        unit={t('units.seconds')}
        hint={t('form.secondsHint', { max: formatCount(FREQUENCY_SECONDS_MAX, locale) })}
        rules={rules('seconds')}
      />
      <NumberField
        name="times"
        label={t('times')}
        unit={t('units.requests')}
        hint={t('form.timesHint', { max: formatCount(FREQUENCY_TIMES_MAX, locale) })}
        rules={rules('times')}
      />
    </FrequencyLimitFields>
  );
}

/** A per-second limit's fields: the rate, the burst above it and how long an IP over them is blocked. */
export function SecondLimitFields({ rules }: FirewallFieldsProps) {
  const { t } = useTranslation('firewall');
  const [locale] = useLocale();
  return (
    <FrequencyLimitFields rules={rules}>
      <NumberField
        name="rate"
        label={t('rate')}
        unit={t('units.perSecond')}
        hint={t('form.rateHint', { max: formatCount(SECOND_RATE_MAX, locale) })}
        rules={rules('rate')}
      />
      <NumberField
        name="burst"
        label={t('burst')}
        unit={t('units.requests')}
        hint={t('form.burstHint', { max: formatCount(SECOND_BURST_MAX, locale) })}
        rules={rules('burst')}
      />
      <NumberField
        name="blockSeconds"
        label={t('blockSeconds')}
        unit={t('units.seconds')}
        hint={t('form.blockSecondsHint', { max: formatCount(BLOCK_SECONDS_MAX, locale) })}
        rules={rules('blockSeconds')}
      />
    </FrequencyLimitFields>
  );
}
