import { ZodError } from 'zod';
import { formatPath } from '../data-plane/schema.js';
import { errorText } from './log.js';

/** One line for a log or the status report's lastError. */
export function describeError(err: unknown): string {
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    return `${formatPath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`;
  }
  return errorText(err);
}
