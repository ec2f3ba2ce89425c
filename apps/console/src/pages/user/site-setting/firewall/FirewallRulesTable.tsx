import type { TablePaginationConfig } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListColumns } from '../../../../components/FitTable';
import { type ListQuery, ListTable } from '../../../../components/ListTable';
import { actionsColumn, RowActions } from '../../../../components/RowActions';
import type { FirewallRuleRow } from './firewall-kinds';

interface FirewallRulesTableProps<R> {
  /** The kind's columns; the table adds the row actions. */
  columns: ListColumns<R>;
  emptyText: string;
  list: ListQuery<R>;
  /** Page and size: the URL's (a site's kinds) or the component's (a domain's lists, in a drawer). */
  search: { pagination(total: number | undefined): TablePaginationConfig };
  canWrite: boolean;
  /** The list's buttons, on the column chooser's line. */
  toolbar: ReactNode;
  selected: number[];
  onSelect: (ids: number[]) => void;
  onEdit: (rule: R) => void;
  onDelete: (id: number) => void;
  /** Whether this rule's own delete is under way. */
  deleting: (id: number) => boolean;
}

/** One row a rule, in the kind's columns; edit, delete and selection for a caller with the write key. */
export function FirewallRulesTable<R extends FirewallRuleRow>(props: FirewallRulesTableProps<R>) {
  const { columns, emptyText, list, search, canWrite, toolbar, selected, onSelect, onEdit, onDelete, deleting } = props;
  const { t } = useTranslation('firewall');
  const withActions: ListColumns<R> = [
    ...columns,
    // A caller without the write key sees the rules only.
    ...(canWrite
      ? [
          actionsColumn((rule: R) => (
            <RowActions
              onEdit={() => onEdit(rule)}
              deleteConfirm={t('deleteConfirm')}
              deleting={deleting(rule.id)}
              onDelete={() => onDelete(rule.id)}
            />
          )),
        ]
      : []),
  ];

  return (
    <ListTable<R>
      rowKey="id"
      columns={withActions}
      toolbar={toolbar}
      rowSelection={
        canWrite ? { selectedRowKeys: selected, onChange: (keys) => onSelect(keys as number[]) } : undefined
      }
      list={list}
      paging={search}
      emptyText={emptyText}
    />
  );
}
