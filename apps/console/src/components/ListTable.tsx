import type { TablePaginationConfig } from 'antd';
import type { ListSearch } from '../features/lists/use-list-search';
import { FitTable, type FitTableProps } from './FitTable';
import { ListEmpty } from './ListEmpty';

/** The state of a list query as the table needs it (a TanStack Query result of a `{ data, total }` route). */
export interface ListQuery<T> {
  data?: { data: T[]; total: number } | undefined;
  isLoading: boolean;
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
}

export type ListTableProps<T> = Omit<FitTableProps<T>, 'dataSource' | 'loading' | 'pagination' | 'locale'> & {
  list: ListQuery<T>;
  /** Paging (and sorting) of the list: from the URL (useListSearch) or local (useLocalPaging). */
  paging: {
    pagination(total: number | undefined): TablePaginationConfig;
    onTableChange?: ListSearch<string>['onTableChange'];
  };
  /** What the table says without rows ("No zones yet"). */
  emptyText: string;
  /** A list that reloads by itself spins only while it loads the first time. */
  quietRefresh?: boolean;
};

/**
 * A table of a server-paged list: the rows and total of the current page, a spinner while loading,
 * the list's empty text, or a load failure with a retry. Its columns are a FitTable's: the name
 * and actions stay in sight, the list's default columns show and the rest are chosen.
 */
export function ListTable<T extends object>({
  list,
  paging,
  emptyText,
  quietRefresh = false,
  ...rest
}: ListTableProps<T>) {
  return (
    <FitTable<T>
      dataSource={list.data?.data}
      loading={quietRefresh ? list.isLoading : list.isFetching}
      pagination={paging.pagination(list.data?.total)}
      onChange={paging.onTableChange}
      locale={{ emptyText: <ListEmpty text={emptyText} failed={list.isError} onRetry={() => list.refetch()} /> }}
      {...rest}
    />
  );
}
