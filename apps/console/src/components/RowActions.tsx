import { Button, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteButton } from './DeleteButton';

interface RowActionsProps {
  onEdit: () => void;
  /** The delete question, naming the row. */
  deleteConfirm: string;
  onDelete: () => void;
  /** This row's delete is under way. */
  deleting: boolean;
  /** Further buttons of the row, between edit and delete. */
  children?: ReactNode;
  /** The row's own buttons shown before edit (opening what the row holds). */
  before?: ReactNode;
}

/** The actions cell of a list row: the row's own buttons, edit, and delete after asking. */
export function RowActions({ onEdit, deleteConfirm, onDelete, deleting, children, before }: RowActionsProps) {
  const { t } = useTranslation();
  return (
    <Space>
      {before}
      <Button size="small" onClick={onEdit}>
        {t('actions.edit')}
      </Button>
      {children}
      <DeleteButton confirm={deleteConfirm} pending={deleting} onConfirm={onDelete} />
    </Space>
  );
}
