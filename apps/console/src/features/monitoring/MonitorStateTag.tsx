import type { NodeMonitorStatus } from '@rampart/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../components/DateTime';
import { useLocale } from '../../i18n';

const COLORS: Record<NodeMonitorStatus['state'], string> = {
  up: 'green',
  down: 'red',
  unknown: 'default',
  unmonitored: 'default',
};

/** A node's monitoring state as a coloured tag, with since when in its tooltip text. */
export function MonitorStateTag({ state, since }: { state: NodeMonitorStatus['state']; since?: string | null }) {
  const { t } = useTranslation('monitoring');
  const [locale] = useLocale();
  const when = since ? t('since', { time: formatDateTime(since, locale) }) : undefined;
  return (
    <Tag color={COLORS[state]} title={when}>
      {t(`states.${state}`)}
    </Tag>
  );
}
