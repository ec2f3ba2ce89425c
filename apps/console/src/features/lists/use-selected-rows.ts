import type { TableProps } from 'antd';
import { useState } from 'react';

/**
 * The rows picked in a list table, as rows (the dialogs they open show their names): the table's
 * `rowSelection`, the picked rows, and `clear` for when the action on them is done.
 */
export function useSelectedRows<T extends { id: number }>() {
  const [selected, setSelected] = useState<T[]>([]);
  const rowSelection: TableProps<T>['rowSelection'] = {
    selectedRowKeys: selected.map((row) => row.id),
    onChange: (_keys, rows) => setSelected(rows),
  };
  return { selected, rowSelection, clear: () => setSelected([]) };
}
