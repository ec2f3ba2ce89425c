import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Flex, Popover, Table, type TableColumnType, type TableProps } from 'antd';
import { type CSSProperties, isValidElement, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A column of a list table: antd's, with what the column chooser and the cell width need. */
export type ListColumn<T> = TableColumnType<T> & {
  /** Left out of the list's default columns: shown once chosen in the column chooser. */
  defaultHidden?: boolean;
  /** The column's name in the chooser when its title is not plain text. */
  chooserLabel?: string;
  /** The widest a cell of a name or `ellipsis` column gets before it ends in "…". */
  maxWidth?: number;
};
export type ListColumns<T> = ListColumn<T>[];

/** The key of the actions column (RowActions' actionsColumn). */
const ACTIONS_KEY = 'actions';
/** Where each list's column choice is kept; the rest of the key names the list's columns. */
const STORAGE_PREFIX = 'rampart.columns:';
/** The widest a name cell gets: longer names end in "…" and show in full on hover. */
const NAME_MAX_WIDTH = 220;
/** The widest a cell of another `ellipsis` column gets. */
const CELL_MAX_WIDTH = 180;
const ELLIPSIS: CSSProperties = {
  display: 'inline-block',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  verticalAlign: 'middle',
};

type Choice = Record<string, boolean>;

function columnId<T>(column: ListColumn<T>): string | undefined {
  if (column.key !== undefined) return String(column.key);
  const { dataIndex } = column;
  if (typeof dataIndex === 'string' || typeof dataIndex === 'number') return String(dataIndex);
  if (Array.isArray(dataIndex)) return dataIndex.join('.');
  return undefined;
}

function readChoice(key: string): Choice {
  try {
    const stored: unknown = JSON.parse(globalThis.localStorage?.getItem(key) ?? '{}');
    return stored !== null && typeof stored === 'object' ? (stored as Choice) : {};
  } catch {
    return {};
  }
}

function writeChoice(key: string, choice: Choice): void {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify(choice));
  } catch {
    // A browser that keeps nothing keeps the choice for this visit only.
  }
}

/** The text of a cell, for its hover title: the value itself, or the text a link or tag around it shows. */
function cellText(value: unknown, content: ReactNode): string | undefined {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (typeof content === 'string') return content;
  if (isValidElement<{ children?: unknown }>(content) && typeof content.props.children === 'string')
    return content.props.children;
  return undefined;
}

/** The column with its cells kept to one line of at most `maxWidth`, the full text in their title. */
function ellipsized<T>(column: ListColumn<T>, maxWidth: number): ListColumn<T> {
  const { render } = column;
  return {
    ...column,
    ellipsis: undefined,
    render: (value: unknown, row: T, index: number) => {
      const content = render ? render(value, row, index) : (value as ReactNode);
      // antd's cell object ({ children, props }) is left as it is; elements, lists and text are kept to one line.
      if (content !== null && typeof content === 'object' && !isValidElement(content) && !Array.isArray(content))
        return content;
      return (
        <span style={{ ...ELLIPSIS, maxWidth }} title={cellText(value, content)}>
          {content}
        </span>
      );
    },
  };
}

function antdColumn<T>({
  defaultHidden: _hidden,
  chooserLabel: _label,
  maxWidth: _maxWidth,
  ...column
}: ListColumn<T>): ListColumn<T> {
  return column;
}

/**
 * The columns a list shows and the chooser that changes them. The first column (the row's name)
 * stays on the left and the actions column on the right while the rest scrolls, and neither can be
 * hidden; the others show unless `defaultHidden`, or as last chosen for this list (kept in
 * localStorage under the list's column names). The chooser is there when some column is
 * `defaultHidden`. Name cells and `ellipsis` columns keep to one line.
 */
export function useFitColumns<T>(columns: ListColumns<T>): { columns: ListColumn<T>[]; chooser: ReactNode } {
  const { t } = useTranslation();
  const fixed = (column: ListColumn<T>, index: number) => index === 0 || columnId(column) === ACTIONS_KEY;
  const hideable = columns.filter((column, index) => !fixed(column, index) && columnId(column) !== undefined);
  const storageKey = STORAGE_PREFIX + hideable.map((column) => columnId(column)).join(',');
  const [stored, setStored] = useState(() => ({ key: storageKey, choice: readChoice(storageKey) }));
  const choice = stored.key === storageKey ? stored.choice : readChoice(storageKey);
  const isShown = (column: ListColumn<T>, index: number) =>
    fixed(column, index) || (choice[columnId(column) ?? ''] ?? !column.defaultHidden);

  const choose = (next: Choice) => {
    writeChoice(storageKey, next);
    setStored({ key: storageKey, choice: next });
  };
  const shown = columns
    .map((column, index) => ({ column, index }))
    .filter(({ column, index }) => isShown(column, index))
    .map(({ column, index }) => {
      const fitted =
        index === 0 || column.ellipsis
          ? ellipsized(column, column.maxWidth ?? (index === 0 ? NAME_MAX_WIDTH : CELL_MAX_WIDTH))
          : column;
      if (index === 0) return antdColumn({ ...fitted, fixed: 'left' as const });
      if (columnId(column) === ACTIONS_KEY) return antdColumn({ ...fitted, fixed: 'right' as const });
      return antdColumn(fitted);
    });

  const label = (column: ListColumn<T>) =>
    column.chooserLabel ??
    ((typeof column.title === 'string' && column.title) ||
      (columnId(column) === ACTIONS_KEY ? t('actions.title') : (columnId(column) ?? '')));
  // A list whose columns all show by default has nothing to choose: no chooser clutters its toolbar.
  const chooser = !hideable.some((column) => column.defaultHidden) ? null : (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t('list.columnsTitle')}
      content={
        <Flex vertical gap={4}>
          {columns.map((column, index) => {
            const id = columnId(column);
            if (id === undefined && !fixed(column, index)) return null;
            return (
              <Checkbox
                key={id ?? index}
                checked={isShown(column, index)}
                disabled={fixed(column, index)}
                onChange={(event) => choose({ ...choice, [id ?? '']: event.target.checked })}
              >
                {label(column)}
              </Checkbox>
            );
          })}
          <Button
            size="small"
            type="link"
            style={{ alignSelf: 'flex-start', padding: 0 }}
            onClick={() => choose(Object.fromEntries(hideable.map((column) => [columnId(column), true])))}
          >
            {t('list.columnsAll')}
          </Button>
        </Flex>
      }
    >
      <Button size="small" icon={<SettingOutlined />}>
        {t('list.columns')}
      </Button>
    </Popover>
  );
  return { columns: shown, chooser };
}

export type FitTableProps<T> = Omit<TableProps<T>, 'columns'> & {
  columns: ListColumns<T>;
  /** What goes on the chooser's line, left of it (a list's own buttons); the line wraps. */
  toolbar?: ReactNode;
};

/**
 * Every list table of the console: the columns of {@link useFitColumns} and, above the table, its
 * toolbar and column chooser on one line that wraps. A table wider than its place scrolls inside it.
 */
export function FitTable<T extends object>({ columns, toolbar, ...rest }: FitTableProps<T>) {
  const fit = useFitColumns(columns);
  return (
    <>
      {(toolbar || fit.chooser) && (
        <ListToolbar>
          <div>{toolbar}</div>
          {fit.chooser}
        </ListToolbar>
      )}
      <Table<T> columns={fit.columns} scroll={{ x: 'max-content' }} {...rest} />
    </>
  );
}

/** A list's line of buttons and filters: items keep their order and wrap onto more lines when narrow. */
export function ListToolbar({
  children,
  justify = 'space-between',
  style,
}: {
  children: ReactNode;
  /** Where the items sit: apart (filters left, buttons right) or together on the right. */
  justify?: 'space-between' | 'flex-end' | 'flex-start';
  style?: CSSProperties;
}) {
  return (
    <Flex wrap gap="small" justify={justify} align="center" style={{ marginBottom: 12, ...style }}>
      {children}
    </Flex>
  );
}
