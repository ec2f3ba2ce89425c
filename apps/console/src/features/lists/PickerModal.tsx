import { useQuery } from '@tanstack/react-query';
import { Modal, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListToolbar } from '../../components/FitTable';
import { ListTable } from '../../components/ListTable';
import { SearchBox } from '../../components/SearchBox';
import { useLocalPaging } from './use-list-search';
import { useSelectedRows } from './use-selected-rows';

/** The query options of one page of the list to pick from (what `routeQuery` answers). */
export interface PickerQuery<T> {
  queryKey: readonly unknown[];
  queryFn: (context: { signal: AbortSignal }) => Promise<{ data: T[]; total: number }>;
}

interface PickerModalProps<T extends { id: number }> {
  open: boolean;
  title: string;
  searchLabel: string;
  emptyText: string;
  columns: TableColumnsType<T>;
  /** The server-paged, server-searched list to pick from. */
  query: (input: { page: number; pageSize: number; value?: string }) => PickerQuery<T>;
  pending: boolean;
  onPick: (ids: number[]) => void;
  onClose: () => void;
}

/**
 * A dialog that picks rows of a server-paged list (searched on the server) and hands their ids
 * over; the caller closes it when its call succeeds. Its search and selection start afresh each time.
 */
export function PickerModal<T extends { id: number }>(props: PickerModalProps<T>) {
  return props.open ? <OpenPicker {...props} /> : null;
}

function OpenPicker<T extends { id: number }>({
  title,
  searchLabel,
  emptyText,
  columns,
  query,
  pending,
  onPick,
  onClose,
}: PickerModalProps<T>) {
  const { t } = useTranslation();
  const [value, setValue] = useState<string | undefined>();
  const { selected, rowSelection } = useSelectedRows<T>();
  return (
    <Modal
      open
      title={title}
      width={720}
      onCancel={onClose}
      onOk={() => onPick(selected.map((row) => row.id))}
      okText={t('picker.pick', { count: selected.length })}
      okButtonProps={{ disabled: selected.length === 0, loading: pending }}
      cancelButtonProps={{ disabled: pending }}
    >
      <ListToolbar justify="flex-start">
        <SearchBox label={searchLabel} value={value} onSearch={(text) => setValue(text || undefined)} />
      </ListToolbar>
      {/* Keyed by the search, so a new search starts on the first page. */}
      <PickerTable<T>
        key={value ?? ''}
        value={value}
        columns={columns}
        query={query}
        emptyText={emptyText}
        rowSelection={rowSelection}
      />
    </Modal>
  );
}

function PickerTable<T extends { id: number }>({
  value,
  columns,
  query,
  emptyText,
  rowSelection,
}: Pick<PickerModalProps<T>, 'columns' | 'query' | 'emptyText'> & {
  value: string | undefined;
  rowSelection: ReturnType<typeof useSelectedRows<T>>['rowSelection'];
}) {
  const paging = useLocalPaging();
  const list = useQuery(query({ page: paging.page, pageSize: paging.pageSize, ...(value ? { value } : {}) }));
  return (
    <ListTable<T>
      rowKey="id"
      size="small"
      columns={columns}
      list={list}
      paging={paging}
      emptyText={emptyText}
      rowSelection={rowSelection}
    />
  );
}
