import { Button, Space, type TableColumnType } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../i18n/i18n';
import { DeleteButton } from './DeleteButton';

interface RowActionsProps {
  /** Opens the row for editing; a row without it has no edit button. */
  onEdit?: () => void;
  /** The edit button's text when the row edits one thing ("Rename"); 'Edit' when absent. */
  editLabel?: string;
  /** The edit button's accessible name when its text alone would not tell the rows apart. */
  editAriaLabel?: string;
  /** The delete question, naming the row; a row without it has no delete button (nothing to delete). */
  deleteConfirm?: string;
  onDelete?: () => void;
  /** This row's delete is under way. */
  deleting?: boolean;
  /** The delete button's text when the row removes rather than deletes ("Remove from zone"). */
  deleteLabel?: string;
  /** The row cannot go now (the last one that must stay): the delete button shows, disabled. */
  deleteDisabled?: boolean;
  /** Further buttons of the row, between edit and delete. */
  children?: ReactNode;
  /** The row's own buttons shown before edit (opening what the row holds). */
  before?: ReactNode;
  /** Wrap the buttons onto more lines in a narrow cell (rows with many buttons). */
  wrap?: boolean;
}

/** The actions cell of a list row: the row's own buttons, edit, and delete after asking. */
export function RowActions({
  onEdit,
  editLabel,
  editAriaLabel,
  deleteConfirm,
  onDelete,
  deleting = false,
  deleteLabel,
  deleteDisabled,
  children,
  before,
  wrap,
}: RowActionsProps) {
  const { t } = useTranslation();
  return (
    <Space wrap={wrap}>
      {before}
      {onEdit && (
        <Button size="small" onClick={onEdit} aria-label={editAriaLabel}>
          {editLabel ?? t('actions.edit')}
        </Button>
      )}
      {children}
      {deleteConfirm !== undefined && onDelete && (
        <DeleteButton
          confirm={deleteConfirm}
          label={deleteLabel}
          pending={deleting}
          disabled={deleteDisabled}
          onConfirm={onDelete}
        />
      )}
    </Space>
  );
}

interface SelectionDeleteProps {
  /** How many rows are chosen: none, and the button is disabled. */
  count: number;
  /** The button's text, with the count ("Delete selected (2)"). */
  label: string;
  /** The question, with the count. */
  confirm: string;
  /** The delete of the chosen rows is under way. */
  pending: boolean;
  onDelete: () => void;
}

/** RowActions' delete for the rows chosen in a table: one button above it that asks first. */
export function SelectionDelete({ count, label, confirm, pending, onDelete }: SelectionDeleteProps) {
  return <DeleteButton label={label} confirm={confirm} disabled={count === 0} pending={pending} onConfirm={onDelete} />;
}

/**
 * The last column of a list table: each row's actions (usually RowActions) under the common
 * "Actions" heading, or under `title` where the table names it otherwise (or leaves it empty).
 */
export function actionsColumn<T>(render: (row: T) => ReactNode, title: ReactNode = i18n.t('actions.title')) {
  return { title, key: 'actions', render: (_: unknown, row: T) => render(row) } satisfies TableColumnType<T>;
}
