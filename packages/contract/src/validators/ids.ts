import { z } from 'zod';

/** A row id in a body or reply: a positive whole number. */
export const zId = z.number().int().positive();

/** A row id in a path or query string, where it arrives as text. */
export const zIdParam = z.coerce.number().int().positive();

/**
 * A list of row ids a call acts on: `min` to `max` of them (the limit counts what was sent), each
 * named once after parsing, so a repeated id acts once and counts once.
 */
export function zIds(max: number, min = 1) {
  return z
    .array(zId)
    .min(min)
    .max(max)
    .overwrite((ids) => [...new Set(ids)]);
}

/** A row named by its id and name, as pickers and references list it. */
export const idNameSchema = z.object({ id: z.number().int(), name: z.string() });
