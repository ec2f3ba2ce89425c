import { LOCALES } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { resources } from './resources';

/** Dotted paths of every text in a resource tree, e.g. `notFound.title`. */
function keyPaths(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keyPaths(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe('interface texts', () => {
  const all = new Set(LOCALES.flatMap((locale) => keyPaths(resources[locale])));

  it.each(LOCALES)('%s has every key that any locale has', (locale) => {
    const own = new Set(keyPaths(resources[locale]));
    expect([...all].filter((key) => !own.has(key))).toEqual([]);
  });

  it.each(LOCALES)('%s has a non-empty text for every key', (locale) => {
    const leaves = keyPaths(resources[locale]).map((path) =>
      path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], resources[locale]),
    );
    expect(leaves.filter((text) => typeof text !== 'string' || text.trim() === '')).toEqual([]);
  });
});
