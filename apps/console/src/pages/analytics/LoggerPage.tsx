import { Flex, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/account-context';
import { PageTitle } from '../../components/PageTitle';
import { useListSearch } from '../../features/lists/use-list-search';
import { StatisticsFilters } from '../../features/statistics/StatisticsFilters';
import { useStatisticsFilter } from '../../features/statistics/use-statistics-filter';
import { useStatisticsTier } from '../../features/statistics/use-statistics-tier';
import { LogExportButton } from './LogExportButton';
import { SearchRow } from './LoggerSearchRow';
import { LogTable } from './LoggerTable';
import { DEFAULT_HOURS, fieldsOf, LOG_SEARCH_KEYS, type LogKind, paramsOf, sent } from './logger-search';

/**
 * `/{tier}/dataAnalysis/logger`: the access and WAF logs of the caller's sites (the operator's: of
 * its zones and customers) — each request the edge served, newest first, paged on the server,
 * filtered by the scope and time range of the statistics pages and by address, status, method,
 * URL and request id (the WAF log also by rule and action); a row opens to its whole record. The
 * search on screen is exported to a file (LogExportButton, the logExport page).
 */
export function LoggerPage() {
  const { t } = useTranslation(['logs', 'shell']);
  const tier = useStatisticsTier();
  const filter = useStatisticsFilter(DEFAULT_HOURS);
  const search = useListSearch(LOG_SEARCH_KEYS);
  const kind: LogKind = search.filters.kind === 'waf' ? 'waf' : 'access';
  const fields = fieldsOf(search.filters);
  const canExport = useCan(`${tier}.logs.write`);
  return (
    <>
      <PageTitle>{t('shell:menu.logger')}</PageTitle>
      <StatisticsFilters filter={filter} interval={false} />
      <Tabs
        activeKey={kind}
        onChange={(key) => search.setFilters({ kind: key === 'waf' ? 'waf' : undefined })}
        items={[
          { key: 'access', label: t('logs:tabs.access') },
          { key: 'waf', label: t('logs:tabs.waf') },
        ]}
      />
      {/* Keyed by the URL's filters: back and forward show the search of that page. */}
      <SearchRow
        key={LOG_SEARCH_KEYS.map((k) => search.filters[k] ?? '').join('\u0000')}
        kind={kind}
        initial={fields}
        onSearch={(next) => search.setFilters(paramsOf(next))}
      />
      {canExport && (
        <Flex justify="flex-end" style={{ marginBottom: 8 }}>
          <LogExportButton kind={kind} body={{ ...filter.body, ...sent(fields, kind) }} />
        </Flex>
      )}
      <LogTable key={kind} tier={tier} kind={kind} search={search} body={{ ...filter.body, ...sent(fields, kind) }} />
    </>
  );
}
