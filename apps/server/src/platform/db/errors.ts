/** PostgreSQL error codes, read the same way from pg and PGlite (drizzle may wrap them in `cause`). */
function sqlState(error: unknown): unknown {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  return e?.code ?? e?.cause?.code;
}

export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

/** A row still referenced: 23503, or 23001 (restrict_violation), which newer PostgreSQL raises for ON DELETE RESTRICT. */
export function isForeignKeyViolation(error: unknown): boolean {
  const state = sqlState(error);
  return state === '23503' || state === '23001';
}
