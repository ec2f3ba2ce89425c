import { z } from 'zod';
import { PAGE_DEFAULT, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.js';

/**
 * Paging query accepted by every list call: `page` from 1 (default 1), `pageSize` from 1 to
 * {@link PAGE_SIZE_MAX} (default {@link PAGE_SIZE_DEFAULT}). Query strings are coerced.
 */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(PAGE_DEFAULT),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type PageQuery = z.output<typeof pageQuery>;

export const ORDER_BY = ['asc', 'desc'] as const;
export const orderBySchema = z.enum(ORDER_BY);

/** One field that failed validation, as sent in the `extra.fields` of a 101003 reply. */
export const fieldErrorSchema = z.object({
  /** Where the value came from. */
  in: z.enum(['params', 'query', 'body']),
  /** Dotted path of the field inside that part, e.g. `domains.3` ('' for the whole part). */
  field: z.string(),
  /** The validation message key (see VALIDATION_MESSAGES). */
  key: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** One entry of a 101009 (Multiple Errors) reply: each code with the targets it concerns. */
export const multiErrorEntrySchema = z.object({
  code: z.number().int(),
  message: z.string(),
  targets: z.array(z.string()),
});

/** The body of every non-2xx reply. */
export const errorReplySchema = z.object({
  code: z.number().int(),
  message: z.string(),
  extra: z.unknown().optional(),
  errors: z.array(multiErrorEntrySchema).optional(),
});
export type ErrorReply = z.infer<typeof errorReplySchema>;
