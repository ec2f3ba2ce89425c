import { STATISTICS_RANGE_MAX_DAYS } from '@rampart/contract';
import { Flex, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { AccountPicker } from '../accounts/AccountPicker';
import { AllMultiSelect } from './AllMultiSelect';
import { RANGE_HOURS, stepsFor, thisMonth } from './time-range';
import { useDomainOptions, useDomainTagOptions, useSiteOptions, useZoneOptions } from './use-scope-options';
import type { StatisticsFilter } from './use-statistics-filter';
import { useStatisticsTier } from './use-statistics-tier';

const CUSTOM = 'custom';
const THIS_MONTH = 'thisMonth';

/** `YYYY-MM-DDTHH:mm` in the browser's time zone, as a datetime-local input shows it. */
function localInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

interface StatisticsFiltersProps {
  filter: StatisticsFilter;
  /** Show the report interval (pages with time series). */
  interval?: boolean;
  /** Show the site and domain filters (every page but the dashboard's). */
  scope?: boolean;
}

/**
 * The filters of a statistics page (spec part 2 §3, §4): zones and customer (the operator's),
 * sites and domains (each with "all" first), domain tags (none chosen: all), the time range (the last hours, this month, or a
 * custom range in the browser's time zone) and the report interval.
 */
export function StatisticsFilters({ filter, interval = true, scope = true }: StatisticsFiltersProps) {
  const { t } = useTranslation('statistics');
  const tier = useStatisticsTier();
  const { state, update, range, step } = filter;
  const zones = useZoneOptions(tier);
  const sites = useSiteOptions(tier, state.userID);
  const domains = useDomainOptions(tier, state.siteIDs, state.domainIDs);
  const domainTags = useDomainTagOptions(tier, state.siteIDs, scope);

  const rangeValue = 'hours' in state.range ? `h${state.range.hours}` : CUSTOM;
  const rangeOptions = [
    ...RANGE_HOURS.map((hours) => ({
      value: `h${hours}`,
      label: hours < 24 ? t('range.hours', { count: hours }) : t('range.days', { count: hours / 24 }),
    })),
    { value: THIS_MONTH, label: t('range.thisMonth') },
    { value: CUSTOM, label: t('range.custom') },
  ];
  const chooseRange = (value: string) => {
    if (value === THIS_MONTH) update({ range: thisMonth(Date.now()) });
    else if (value === CUSTOM) update({ range: { start: range.startTime, end: range.endTime } });
    else update({ range: { hours: Number(value.slice(1)) } });
  };
  const setCustom = (side: 'start' | 'end', text: string) => {
    const ms = Date.parse(text);
    if (Number.isNaN(ms)) return;
    const next = { start: range.startTime, end: range.endTime, [side]: new Date(ms).toISOString() };
    const span = Date.parse(next.end) - Date.parse(next.start);
    // The calls refuse an empty or reversed range and one over STATISTICS_RANGE_MAX_DAYS: keep the last good one.
    if (span <= 0 || span > STATISTICS_RANGE_MAX_DAYS * 86_400_000) return;
    update({ range: next });
  };

  return (
    <Flex gap="small" wrap align="center" style={{ marginBottom: 16 }} data-testid="statistics-filters">
      {scope && zones.allowed && (
        <AllMultiSelect
          label={t('filters.zones')}
          allLabel={t('filters.allZones')}
          value={state.zoneIDs}
          options={zones.options}
          loading={zones.loading}
          onChange={(zoneIDs) => update({ zoneIDs })}
          width={160}
        />
      )}
      {scope && tier === 'client' && (
        <AccountPicker
          allowClear
          ariaLabel={t('filters.customer')}
          placeholder={t('filters.allCustomers')}
          value={state.userID}
          onChange={(userID) => update({ userID, siteIDs: [], domainIDs: [], domainTags: [] })}
          style={{ width: 200 }}
        />
      )}
      {scope && sites.allowed && (
        <AllMultiSelect
          label={t('filters.sites')}
          allLabel={t('filters.allSites')}
          value={state.siteIDs}
          options={sites.options}
          loading={sites.loading}
          onChange={(siteIDs) => update({ siteIDs, domainIDs: [], domainTags: [] })}
        />
      )}
      {scope && domains.allowed && (
        <AllMultiSelect
          label={t('filters.domains')}
          allLabel={t('filters.allDomains')}
          value={state.domainIDs}
          options={domains.options}
          loading={domains.loading}
          onSearch={domains.onSearch}
          onChange={(domainIDs) => update({ domainIDs })}
        />
      )}
      {scope && domainTags.allowed && (
        <Select<string[]>
          mode="multiple"
          allowClear
          aria-label={t('filters.domainTags')}
          placeholder={t('filters.allDomainTags')}
          style={{ minWidth: 180, maxWidth: 420 }}
          maxTagCount="responsive"
          loading={domainTags.loading}
          value={state.domainTags}
          options={domainTags.options}
          onChange={(tags) => update({ domainTags: tags })}
        />
      )}
      <Select
        aria-label={t('filters.range')}
        style={{ width: 150 }}
        value={rangeValue}
        options={rangeOptions}
        onChange={chooseRange}
      />
      {rangeValue === CUSTOM && (
        <Flex gap={4} align="center">
          <Input
            type="datetime-local"
            aria-label={t('filters.start')}
            value={localInput(range.startTime)}
            onChange={(event) => setCustom('start', event.target.value)}
            style={{ width: 200 }}
          />
          <span aria-hidden>–</span>
          <Input
            type="datetime-local"
            aria-label={t('filters.end')}
            value={localInput(range.endTime)}
            onChange={(event) => setCustom('end', event.target.value)}
            style={{ width: 200 }}
          />
        </Flex>
      )}
      {interval && (
        <Select
          aria-label={t('filters.interval')}
          style={{ width: 150 }}
          value={step}
          options={stepsFor(range).map((minutes) => ({
            value: minutes,
            label: t('range.minutes', { count: minutes }),
          }))}
          onChange={(minutes: number) => update({ interval: minutes })}
        />
      )}
    </Flex>
  );
}
