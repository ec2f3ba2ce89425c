/** A page of a list: its number, counted from 1, and how many rows a page holds. */
export type Page = { page: number; pageSize: number };

/** The part of a select that a page needs: drizzle's `.limit(n).offset(m)`, which runs when awaited. */
type PageableQuery<Row> = { limit(limit: number): { offset(offset: number): PromiseLike<Row[]> } };

/**
 * One page of a list and how many rows the list holds in all, read at once: `rows` is the
 * select with its joins, filter and order (the order must end on a unique column, or rows
 * move between pages), `total` counts the rows that same filter matches.
 */
export async function readPage<Row>(
  rows: PageableQuery<Row>,
  total: PromiseLike<{ n: number }[]>,
  { page, pageSize }: Page,
): Promise<{ rows: Row[]; total: number }> {
  const [found, [counted]] = await Promise.all([rows.limit(pageSize).offset((page - 1) * pageSize), total]);
  return { rows: found, total: counted?.n ?? 0 };
}
