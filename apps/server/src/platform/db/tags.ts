import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/** A jsonb array of strings (a tags column) that holds any of `tags`; `tags` must not be empty. */
export function hasAnyTag(column: AnyColumn, tags: readonly string[]): SQL {
  return sql`${column} ?| array[${sql.join(
    tags.map((tag) => sql`${tag}`),
    sql`, `,
  )}]::text[]`;
}

/** Every distinct string in a jsonb tags column, as a select field (order with `sql\`1\``). */
export function tagElements(column: AnyColumn): SQL<string> {
  return sql<string>`jsonb_array_elements_text(${column})`;
}
