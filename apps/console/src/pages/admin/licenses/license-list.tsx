import { PlusOutlined } from '@ant-design/icons';
import type { LicenseSetting } from '@rampart/contract';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type ListColumns, ListToolbar } from '../../../components/FitTable';
import { ListTable, type ListTableProps } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { LicenseExpiry, LicenseLimits } from './license-setting';

interface LicenseListProps<T> extends Pick<ListTableProps<T>, 'list' | 'paging' | 'emptyText'> {
  title: string;
  createLabel: string;
  onCreate: () => void;
  /** The kind's own columns before the limits and expiry, and after them (its actions last). */
  lead: ListColumns<T>;
  trail: ListColumns<T>;
  /** The kind's form. */
  children: ReactNode;
}

/**
 * The page both kinds of licence are listed on (online: LicensesPage, offline: OfflineLicensesPage):
 * its title, a create button, the list with each licence's limits and expiry between the kind's own
 * columns, and the kind's form.
 */
export function LicenseList<T extends { id: number; licenseSetting: LicenseSetting }>({
  title,
  createLabel,
  onCreate,
  lead,
  trail,
  children,
  ...table
}: LicenseListProps<T>) {
  const { t } = useTranslation('licenses');
  const columns: ListColumns<T> = [
    ...lead,
    // The limits' tags wrap within the column's width rather than widen the list.
    {
      title: t('limits'),
      key: 'limits',
      width: 150,
      render: (_, item) => <LicenseLimits setting={item.licenseSetting} />,
    },
    { title: t('expiredAt'), key: 'expiredAt', render: (_, item) => <LicenseExpiry setting={item.licenseSetting} /> },
    ...trail,
  ];
  return (
    <>
      <PageTitle>{title}</PageTitle>
      <ListToolbar style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={onCreate}>
          {createLabel}
        </Button>
      </ListToolbar>
      <ListTable<T> rowKey="id" columns={columns} {...table} />
      {children}
    </>
  );
}
