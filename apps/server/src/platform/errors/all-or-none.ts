import { AppError } from './app-error.js';

/**
 * All or none: 101018 unless `found` (the rows found or changed, or how many there were) covers
 * every one of `ids`. One id that is missing or another tenant's refuses the whole call; a call
 * that writes checks inside its transaction, so nothing is kept. `reason` goes to the reply's
 * `extra` where a call says why.
 */
export function requireEvery(found: readonly unknown[] | number, ids: readonly unknown[], reason?: string): void {
  const count = typeof found === 'number' ? found : found.length;
  if (count === ids.length) return;
  throw reason === undefined ? new AppError(101018) : new AppError(101018, { extra: { reason } });
}
