import type { ExtraTrafficPlan, Locale } from '@rampart/contract';
import type { TFunction } from 'i18next';
import { DateTime } from '../../components/DateTime';
import type { ListColumns } from '../../components/FitTable';
import { formatValue } from '../statistics/stat-format';
import { monthKey } from './traffic-units';

/** The columns of an extra-plan list; the operator's shows the customer too. */
export function planColumns(
  t: TFunction<'traffic'>,
  locale: Locale,
  options: { customer: boolean },
): ListColumns<ExtraTrafficPlan> {
  return [
    ...(options.customer ? [{ title: t('customer'), dataIndex: 'userName', ellipsis: true }] : []),
    { title: t('site'), dataIndex: 'siteName', ellipsis: true },
    { title: t('product'), dataIndex: 'productName', ellipsis: true },
    {
      title: t('month'),
      key: 'month',
      render: (_: unknown, plan: ExtraTrafficPlan) => monthKey(plan.year, plan.month),
    },
    { title: t('bytes'), dataIndex: 'bytes', render: (bytes: number) => formatValue(bytes, 'bytes', locale) },
    { title: t('memo'), dataIndex: 'memo', ellipsis: true },
    {
      title: t('createdAt'),
      dataIndex: 'createdAt',
      defaultHidden: true,
      render: (value: string) => <DateTime value={value} />,
    },
  ];
}
