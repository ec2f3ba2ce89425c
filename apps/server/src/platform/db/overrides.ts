/**
 * `target` with some of its properties answered by `overrides`; every other property is the
 * target's own, its methods bound to it (PGlite's objects keep private fields, which a method
 * reached through a proxy could not read with the proxy as `this`).
 */
export function withOverrides<T extends object>(target: T, overrides: Readonly<Record<string, unknown>>): T {
  return new Proxy(target, {
    get(on, prop) {
      if (typeof prop === 'string' && Object.hasOwn(overrides, prop)) return overrides[prop];
      const value = Reflect.get(on, prop, on) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(on) : value;
    },
  });
}
