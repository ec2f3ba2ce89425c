import { Drawer } from 'antd';
import type { ReactNode } from 'react';

interface RowDrawerProps<T> {
  /** The row whose contents the drawer shows; null keeps it closed. */
  row: T | null;
  title: (row: T) => ReactNode;
  size: number;
  onClose: () => void;
  /** The drawer's contents for the row (mounted only while it is open). */
  children: (row: T) => ReactNode;
}

/**
 * A drawer opened from a list row to show what the row holds: open while a row is given, its
 * contents made new for each row and thrown away when it closes (no reads for a closed drawer).
 */
export function RowDrawer<T>({ row, title, size, onClose, children }: RowDrawerProps<T>) {
  return (
    <Drawer open={row !== null} title={row !== null ? title(row) : ''} size={size} onClose={onClose} destroyOnHidden>
      {row !== null && children(row)}
    </Drawer>
  );
}
