import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../components/PageTitle';
import { useListSearch } from '../../features/lists/use-list-search';
import { useStatisticsTier } from '../../features/statistics/use-statistics-tier';
import { EventsTab } from './LogPushEventsTab';
import { LogsTab } from './LogPushLogsTab';
import { LOG_FILTER_KEYS, PAGE_KEYS } from './log-push-search';

/**
 * `/{tier}/dataAnalysis/logPush` (spec part 2 §3 "Log push event and log", §7 "Log push"): the
 * caller's push events — where its access, WAF or audit log goes (a webhook, syslog,
 * Elasticsearch/OpenSearch or Splunk), over which of its sites (the operator's: zones), with which
 * filters — made, edited, switched on and off, deleted, and pushed again over a time range; and
 * the delivery log, one row per batch attempt, paged on the server and filtered in the URL (the
 * operator's also by customer).
 */
export function LogPushPage() {
  const { t } = useTranslation(['logPush', 'shell']);
  const tier = useStatisticsTier();
  const search = useListSearch(PAGE_KEYS);
  const tab = search.filters.tab === 'logs' ? 'logs' : 'events';
  return (
    <>
      <PageTitle>{t('shell:menu.logPush')}</PageTitle>
      <Tabs
        activeKey={tab}
        // A tab starts on its first page, without the other tab's filters.
        onChange={(key) =>
          search.setFilters({
            tab: key === 'logs' ? 'logs' : undefined,
            ...Object.fromEntries(LOG_FILTER_KEYS.map((k) => [k, undefined])),
          })
        }
        items={[
          { key: 'events', label: t('tabs.events') },
          { key: 'logs', label: t('tabs.logs') },
        ]}
      />
      {tab === 'events' ? <EventsTab tier={tier} search={search} /> : <LogsTab tier={tier} search={search} />}
    </>
  );
}
