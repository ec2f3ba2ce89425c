import type { ErrorCode } from '@rampart/contract';
import { AppError } from '../errors/app-error.js';

/** PostgreSQL error codes, read the same way from pg and PGlite (drizzle may wrap them in `cause`). */
function sqlState(error: unknown): unknown {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  return e?.code ?? e?.cause?.code;
}

export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

/** PostgreSQL's detail of a constraint violation ('Key (site_id, name)=(5, a.example) already exists.'), or ''. */
export function violationDetail(error: unknown): string {
  const e = error as { detail?: unknown; cause?: { detail?: unknown } } | null;
  const detail = e?.detail ?? e?.cause?.detail;
  return typeof detail === 'string' ? detail : '';
}

/** A row still referenced: 23503, or 23001 (restrict_violation), which newer PostgreSQL raises for ON DELETE RESTRICT. */
export function isForeignKeyViolation(error: unknown): boolean {
  const state = sqlState(error);
  return state === '23503' || state === '23001';
}

/** What `write` answers; an error `violates` accepts answers `code` instead, any other passes unchanged. */
async function answerViolation<T>(
  violates: (error: unknown) => boolean,
  code: ErrorCode,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (violates(error)) throw new AppError(code);
    throw error;
  }
}

/**
 * What `write` answers; a unique violation it meets answers `code` instead (a name or number
 * already taken, also by a call that committed meanwhile). Any other error passes unchanged.
 */
export function onUniqueViolation<T>(code: ErrorCode, write: () => Promise<T>): Promise<T> {
  return answerViolation(isUniqueViolation, code, write);
}

/** What `write` answers; a row it removes that is still referenced answers `code` instead (in use). */
export function onForeignKeyViolation<T>(code: ErrorCode, write: () => Promise<T>): Promise<T> {
  return answerViolation(isForeignKeyViolation, code, write);
}
