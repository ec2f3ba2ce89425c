import { z } from 'zod';

/**
 * The fields that name where the control plane connects for an operator or a customer (a DNS
 * provider's API, an RFC 2136 server, an ACME directory, a log push destination, an SMTP server).
 * Each such schema is registered here with the form its value takes, so a test can walk every
 * route of the contract and find every field the server must run its target guard on, at save and
 * at use (apps/server platform/http/target-guard.ts): a new outgoing field is found by the walk.
 *
 * `url`: `scheme://host[:port]/...`; `host`: a name or an IP literal; `hostPort`: `host[:port]`
 * (IPv6 as `[addr]:port`).
 */
export type OutgoingTargetForm = 'url' | 'host' | 'hostPort';

export const outgoingTargets = z.registry<{ readonly form: OutgoingTargetForm }>();

/** Marks `schema` as naming an outgoing target of `form` (answers `schema` itself). */
export function outgoingTarget<T extends z.ZodType>(schema: T, form: OutgoingTargetForm): T {
  outgoingTargets.add(schema, { form });
  return schema;
}

/** One outgoing-target field of a schema: its path (`a.b`, array items as `*`) and form. */
export interface OutgoingTargetField {
  readonly path: string;
  readonly form: OutgoingTargetForm;
}

/**
 * Every outgoing-target field a schema holds, through objects, unions, arrays, optional, nullable,
 * default, pipe and lazy wrappers. A path reached by several union branches is listed once.
 */
export function outgoingTargetFields(schema: z.ZodType): OutgoingTargetField[] {
  return registeredFields(schema, outgoingTargets).map(([path, meta]) => ({ path, form: meta.form }));
}

/**
 * The fields of `schema` registered in `registry` (the walk of {@link outgoingTargetFields}), each
 * with its path and metadata.
 */
export function registeredFields<M>(schema: z.ZodType, registry: { get(s: z.ZodType): M | undefined }): [string, M][] {
  const found = new Map<string, M>();
  const seen = new Set<z.ZodType>();
  const walk = (s: z.ZodType, path: string[]) => {
    const meta = registry.get(s);
    if (meta) {
      found.set(path.join('.'), meta);
      return;
    }
    if (seen.has(s)) return;
    seen.add(s);
    const def = (s as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
    switch (def.type) {
      case 'object':
        for (const [key, value] of Object.entries(def.shape as Record<string, z.ZodType>)) walk(value, [...path, key]);
        break;
      case 'union':
        for (const option of def.options as z.ZodType[]) walk(option, path);
        break;
      case 'intersection':
        walk(def.left as z.ZodType, path);
        walk(def.right as z.ZodType, path);
        break;
      case 'array':
        walk(def.element as z.ZodType, [...path, '*']);
        break;
      case 'record':
        walk(def.valueType as z.ZodType, [...path, '*']);
        break;
      case 'pipe':
        walk(def.in as z.ZodType, path);
        walk(def.out as z.ZodType, path);
        break;
      case 'lazy':
        walk((def.getter as () => z.ZodType)(), path);
        break;
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'catch':
      case 'readonly':
      case 'nonoptional':
        walk(def.innerType as z.ZodType, path);
        break;
      default:
        break;
    }
  };
  walk(schema, []);
  return [...found];
}
