import type { LogRecord } from '@rampart/contract';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ListColumn } from '../../components/FitTable';

/**
 * The columns a WAF record shows wherever it is listed (the Logs page, a module's WAF events): the
 * part of the request the match was in, and the excerpt of what matched, as code.
 */
export function useWafColumns(excerptWidth: number): { part: ListColumn<LogRecord>; excerpt: ListColumn<LogRecord> } {
  const { t } = useTranslation('logs');
  return {
    part: {
      title: t('columns.part'),
      dataIndex: 'wafPart',
      maxWidth: 90,
      render: (part: string) => (part ? t(`parts.${part}`, { defaultValue: part }) : '—'),
    },
    excerpt: {
      title: t('columns.excerpt'),
      dataIndex: 'wafExcerpt',
      ellipsis: true,
      maxWidth: excerptWidth,
      render: (excerpt: string) => <Typography.Text code>{excerpt || '—'}</Typography.Text>,
    },
  };
}
