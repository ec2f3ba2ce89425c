import { PORT_MAX, PORT_MIN, zPort } from '@rampart/contract';
import type { z } from 'zod';

/**
 * The bounds of a number field of the contract, read from its zod schema (the checks `min`, `max`,
 * `int` put on it), through the wrappers a body field wears (optional, nullable, default, a
 * preprocess pipe). A port (`zPort`, a number or a decimal string checked by `validatePort`) has
 * the contract's port range. The browser walk of the console's number boxes (number-walk.ts) types values
 * just outside them, so the bounds are the contract's, never copied by hand.
 */
export interface NumberBounds {
  min?: number;
  max?: number;
  integer: boolean;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { def: Def }).def;

/** The schema under the wrappers that do not change what a number field accepts. */
export function unwrapped(schema: z.ZodType): z.ZodType {
  if (schema === zPort) return schema;
  const def = defOf(schema);
  if (['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional'].includes(def.type)) {
    return def.innerType ? unwrapped(def.innerType) : schema;
  }
  // A preprocess (or coerce-then-check) pipe: the checks are on the side that is a number.
  if (def.type === 'pipe' && def.in && def.out) {
    const out = unwrapped(def.out);
    return defOf(out).type === 'number' ? out : unwrapped(def.in);
  }
  return schema;
}

/**
 * The field at `path` of a body schema: names of object fields separated by dots; a list (array)
 * on the way is stepped into (its element), so `upstreams.port` is the port of every upstream; of
 * a union (the DNS providers' settings), the first member that has the field.
 */
export function fieldAt(body: z.ZodType, path: string): z.ZodType | undefined {
  const [name = '', ...rest] = path.split('.');
  const schema = unwrapped(body);
  const def = defOf(schema);
  if (def.type === 'array' && def.element) return fieldAt(def.element, path);
  if ((def.type === 'union' || def.type === 'discriminatedUnion') && def.options) {
    for (const option of def.options) {
      const found = fieldAt(option, path);
      if (found) return found;
    }
    return undefined;
  }
  const field = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape?.[name];
  if (!field || rest.length === 0) return field;
  return fieldAt(field, rest.join('.'));
}

/** The bounds of a number field, or undefined when the field is not a number. */
export function numberBounds(field: z.ZodType): NumberBounds | undefined {
  const inner = unwrapped(field);
  if (inner === zPort) return { min: PORT_MIN, max: PORT_MAX, integer: true };
  const number = inner as unknown as {
    def: Def;
    minValue: number | null;
    maxValue: number | null;
    isInt: boolean;
  };
  if (number.def.type !== 'number') return undefined;
  const finite = (value: number | null) =>
    value !== null && Number.isFinite(value) && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;
  return { min: finite(number.minValue), max: finite(number.maxValue), integer: number.isInt };
}
