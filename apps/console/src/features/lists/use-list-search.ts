import { PAGE_DEFAULT, PAGE_SIZE_CHOICES, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, zIdParam } from '@rampart/contract';
import type { TablePaginationConfig, TableProps } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';

/** Page sizes a list offers: the default, then the spec's choices (part 1 §9). */
export const PAGE_SIZE_OPTIONS = [PAGE_SIZE_DEFAULT, ...PAGE_SIZE_CHOICES];

type TableChange = <T>(...args: Parameters<NonNullable<TableProps<T>['onChange']>>) => void;

type Patch<K extends string> = Partial<Record<K, string | readonly string[] | undefined>>;

export interface ListSearch<K extends string> {
  page: number;
  pageSize: number;
  /** The first value of each filter in the URL ('' and absent read as undefined). */
  filters: Partial<Record<K, string>>;
  /** Every value of a repeated filter (`?zoneIDs=1&zoneIDs=2`). */
  all(key: K): string[];
  /** Changes filters and goes back to the first page; undefined or '' removes a filter. */
  setFilters(patch: Patch<K>): void;
  /** The Table's pagination: the server's total, page and size kept in the URL. */
  pagination(total: number | undefined): TablePaginationConfig;
  /** The sort order a column shows, from `sortBy` / `orderBy` in the URL. */
  sortOrder(field: string): 'ascend' | 'descend' | null;
  /** Table onChange: a click on a sortable column sets `sortBy` / `orderBy`. */
  onTableChange: TableChange;
}

function positiveInt(text: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback;
}

/**
 * Page, page size and filters of a server-paged list, kept in the URL's search params so a reload,
 * a shared link or the back button shows the same page. `keys` are the filters the list reads.
 */
export function useListSearch<K extends string>(
  keys: readonly K[],
  /** The page sizes offered, the first the default (the traffic lists': TRAFFIC_REPORT_PAGE_SIZES). */
  sizes: readonly number[] = PAGE_SIZE_OPTIONS,
): ListSearch<K> {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), PAGE_DEFAULT);
  const pageSize = positiveInt(params.get('pageSize'), sizes[0] ?? PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX);
  const filters: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = params.get(key);
    if (value !== null && value !== '') filters[key] = value;
  }

  const update = (change: (next: URLSearchParams) => void) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      change(next);
      return next;
    });

  const setFilters = (patch: Patch<K>) =>
    update((next) => {
      for (const [key, value] of Object.entries(patch) as [K, Patch<K>[K]][]) {
        next.delete(key);
        for (const item of typeof value === 'string' ? [value] : (value ?? [])) if (item !== '') next.append(key, item);
      }
      next.delete('page');
    });

  return {
    page,
    pageSize,
    filters,
    all: (key) => params.getAll(key).filter((value) => value !== ''),
    setFilters,
    pagination: (total) =>
      paginationConfig(t, page, pageSize, total, sizes, (nextPage, nextSize) =>
        update((next) => {
          next.set('page', String(nextPage));
          next.set('pageSize', String(nextSize));
        }),
      ),
    sortOrder: (field) => {
      if (params.get('sortBy') !== field) return null;
      return params.get('orderBy') === 'asc' ? 'ascend' : 'descend';
    },
    onTableChange: (...[, , sorter, extra]) => {
      if (extra.action !== 'sort' || Array.isArray(sorter)) return;
      const field = typeof sorter.field === 'string' ? sorter.field : undefined;
      setFilters({
        sortBy: sorter.order ? field : undefined,
        orderBy: sorter.order === 'ascend' ? 'asc' : sorter.order === 'descend' ? 'desc' : undefined,
      } as Patch<K>);
    },
  };
}

type Translate = TFunction<'common'>;

/** A Table's pagination for a server-paged list; a new page size starts again on the first page. */
function paginationConfig(
  t: Translate,
  page: number,
  pageSize: number,
  total: number | undefined,
  sizes: readonly number[],
  go: (page: number, pageSize: number) => void,
): TablePaginationConfig {
  return {
    current: page,
    pageSize,
    total: total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: [...sizes],
    showTotal: (count) => t('list.total', { total: count }),
    onChange: (nextPage, nextSize) => go(nextSize === pageSize ? nextPage : PAGE_DEFAULT, nextSize),
  };
}

/** Page and size of a secondary list (a drawer's) kept in the component, not the URL. */
export function useLocalPaging() {
  const { t } = useTranslation();
  const [paging, setPaging] = useState({ page: PAGE_DEFAULT, pageSize: PAGE_SIZE_DEFAULT });
  return {
    ...paging,
    pagination: (total: number | undefined) =>
      paginationConfig(t, paging.page, paging.pageSize, total, PAGE_SIZE_OPTIONS, (page, pageSize) =>
        setPaging({ page, pageSize }),
      ),
  };
}

/**
 * An id the URL names outside a route's query (the row a drawer shows, the site in the path), read
 * with the contract's id schema; anything else is undefined.
 */
export function urlId(value: string | undefined): number | undefined {
  const id = zIdParam.safeParse(value);
  return id.success ? id.data : undefined;
}

/**
 * The URL's values of `keys` as the route's query takes them, each kept only when the route's own
 * query schema accepts it (an enum value, a number, a date, a list of tags); a key the URL does not
 * name, or names with a value the server would refuse, is left out, so the server's default applies.
 * Of a list, the values the schema refuses are left out one by one.
 */
export function urlQuery<S extends z.ZodObject, K extends string & keyof S['shape']>(
  schema: S,
  search: { all(key: NoInfer<K>): string[] },
  keys: readonly K[],
): { [P in K]?: z.input<S>[P] } {
  const query: Partial<Record<K, string | string[]>> = {};
  for (const key of keys) {
    const field = schema.shape[key] as z.ZodType;
    // Of a repeated key, the values the field takes one by one (a list of ids drops a malformed one).
    const values = search.all(key).filter((value) => field.safeParse(value).success);
    if (values.length === 0) continue;
    const value = values.length === 1 ? values[0] : values;
    if (field.safeParse(value).success) query[key] = value;
  }
  return query as { [P in K]?: z.input<S>[P] };
}
