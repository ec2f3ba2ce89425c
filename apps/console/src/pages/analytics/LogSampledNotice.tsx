import type { LogSampled } from '@rampart/contract';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../components/DateTime';
import { useSiteOptions } from '../../features/statistics/use-scope-options';
import { useLocale } from '../../i18n';

/**
 * Above the log search's records: the spans in which a busy site's passed requests came faster than
 * the log store keeps up, so only 1 in N was logged ("shop: 1 in 8 requests kept between 14:02 and
 * 14:05"); the statistics still count every request (docs/decisions.md "Log sampling").
 */
export function LogSampledNotice({ tier, spans }: { tier: 'user' | 'client'; spans: readonly LogSampled[] }) {
  const { t } = useTranslation('logs');
  const [locale] = useLocale();
  const sites = useSiteOptions(tier, undefined);
  if (spans.length === 0) return null;
  const siteName = (id: number) => sites.options.find((o) => o.value === id)?.label ?? `#${id}`;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 8 }}
      data-testid="log-sampled"
      message={t('sampled.title')}
      description={
        <>
          <ul style={{ margin: 0, paddingLeft: 18 }}>
            {spans.map((s) => (
              <li key={`${s.siteID}:${s.start}`}>
                {t('sampled.span', {
                  site: siteName(s.siteID),
                  rate: s.rate,
                  start: formatDateTime(s.start, locale),
                  end: formatDateTime(s.end, locale),
                })}
              </li>
            ))}
          </ul>
          {t('sampled.note')}
        </>
      }
    />
  );
}
