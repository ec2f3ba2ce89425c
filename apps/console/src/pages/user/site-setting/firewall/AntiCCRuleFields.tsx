import {
  ANTI_CC_ERROR_BLOCK_TYPES,
  ANTI_CC_FREQUENCIES,
  BUILT_CHALLENGES,
  FREQUENCY_SECONDS_MAX,
  FREQUENCY_TIMES_MAX,
} from '@rampart/contract';
import { Form, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFieldValue } from '../../../../forms/use-field-value';
import { useLocale } from '../../../../i18n';
import { BlockTypeField, EnabledField, MemoField, NumberField, UrlField } from './FirewallFields';
import { formatCount } from './FrequencyLimitCells';
import type { FirewallFieldsProps } from './firewall-kinds';

/**
 * An anti-CC rule's fields: the URLs it covers, when it challenges (every request, or beyond a
 * count in a window), the challenge, the error limit and what a client over it gets, the switch,
 * a memo. The window and count show only for the custom frequency.
 */
export function AntiCCRuleFields({ rules }: FirewallFieldsProps) {
  const { t } = useTranslation('firewall');
  const [locale] = useLocale();
  const frequency = useFieldValue<string>('frequency');
  return (
    <>
      <UrlField name="urlRegex" rules={rules('urlRegex')} />
      <Form.Item name="frequency" label={t('frequency')} extra={t('form.frequencyHint')} rules={rules('frequency')}>
        <Radio.Group
          aria-label={t('frequency')}
          options={ANTI_CC_FREQUENCIES.map((value) => ({ value, label: t(`frequencies.${value}`) }))}
        />
      </Form.Item>
      {frequency !== 'full' && (
        <>
          <NumberField
            name="seconds"
            label={t('seconds')}
            unit={t('units.seconds')}
            hint={t('form.ccSecondsHint', { max: formatCount(FREQUENCY_SECONDS_MAX, locale) })}
            rules={rules('seconds')}
          />
          <NumberField
            name="times"
            label={t('times')}
            unit={t('units.requests')}
            hint={t('form.ccTimesHint', { max: formatCount(FREQUENCY_TIMES_MAX, locale) })}
            rules={rules('times')}
          />
        </>
      )}
      <BlockTypeField modes={BUILT_CHALLENGES} rules={rules('blockType')} hint={t('form.challengeHint')} />
      <NumberField
        name="errorSeconds"
        label={t('errorSeconds')}
        unit={t('units.seconds')}
        hint={t('form.errorSecondsHint', { max: formatCount(FREQUENCY_SECONDS_MAX, locale) })}
        rules={rules('errorSeconds')}
      />
      <NumberField
        name="errorTimes"
        label={t('errorTimes')}
        unit={t('units.errors')}
        hint={t('form.errorTimesHint', { max: formatCount(FREQUENCY_TIMES_MAX, locale) })}
        rules={rules('errorTimes')}
      />
      <BlockTypeField
        name="errorBlockType"
        label={t('errorBlockType')}
        modes={ANTI_CC_ERROR_BLOCK_TYPES}
        rules={rules('errorBlockType')}
        hint={t('form.frequencyModeHint')}
      />
      <EnabledField />
      <MemoField rules={rules('memo')} />
    </>
  );
}
