import { PlusOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Drawer } from 'antd';
import type { ReactNode } from 'react';
import { FitTable, type ListColumns } from '../../../../components/FitTable';
import { actionsColumn, RowActions } from '../../../../components/RowActions';
import { pendingFor } from '../../../../features/lists/row-pending';

/** How many of a module's items the drawer lists a page. */
export const MODULE_ITEMS_PAGE_SIZE = 20;

interface ModuleItemsDrawerProps<T> {
  open: boolean;
  title: string;
  size: number;
  /** A line above the list, if any. */
  help?: ReactNode;
  addLabel: string;
  onAdd: () => void;
  /** The module's own columns; the row's edit and delete buttons come after them. */
  columns: ListColumns<T>;
  onEdit: (item: T) => void;
  deleteConfirm: string;
  /** The delete mutation, called with the item's id. */
  remove: { isPending: boolean; variables: unknown; mutate: (id: number) => void };
  items: UseQueryResult<{ data: unknown[]; total: number }>;
  page: number;
  onPage: (page: number) => void;
  emptyText: string;
  onClose: () => void;
  /** The item's form. */
  children: ReactNode;
}

/**
 * The items of a site module (a Lua ACL's rules, a token auth's keys) in a drawer: an add button, and
 * the list paged on the server with the module's own columns; the module's form below.
 */
export function ModuleItemsDrawer<T extends { id: number }>({
  open,
  title,
  size,
  help,
  addLabel,
  onAdd,
  columns,
  onEdit,
  deleteConfirm,
  remove,
  items,
  page,
  onPage,
  emptyText,
  onClose,
  children,
}: ModuleItemsDrawerProps<T>) {
  return (
    <Drawer open={open} size={size} title={title} onClose={onClose}>
      {help}
      <Button type="primary" icon={<PlusOutlined />} style={{ marginBottom: 16 }} onClick={onAdd}>
        {addLabel}
      </Button>
      <FitTable<T>
        rowKey="id"
        size="small"
        columns={[
          ...columns,
          actionsColumn(
            (item: T) => (
              <RowActions
                onEdit={() => onEdit(item)}
                deleteConfirm={deleteConfirm}
                deleting={pendingFor(remove, item.id)}
                onDelete={() => remove.mutate(item.id)}
              />
            ),
            '',
          ),
        ]}
        dataSource={(items.data?.data ?? []) as T[]}
        loading={items.isLoading}
        pagination={{
          current: page,
          pageSize: MODULE_ITEMS_PAGE_SIZE,
          total: items.data?.total ?? 0,
          onChange: onPage,
        }}
        locale={{ emptyText }}
      />
      {children}
    </Drawer>
  );
}
