/**
 * The rows of a raw `db.execute(sql…)` result: both drivers (PGlite and node-postgres) answer
 * `{ rows }`, which drizzle's common type does not say.
 */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
