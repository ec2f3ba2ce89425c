import { LOCALES } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { NAMESPACES, resources } from './resources';
import { LOAD_RESOURCES } from './resources/load';

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

  it('lists every namespace, in the order of the English texts', () => {
    expect(NAMESPACES).toEqual(Object.keys(resources.en_US));
  });

  it.each(LOCALES)('%s loads as a chunk of its own with the same texts', async (locale) => {
    expect(await LOAD_RESOURCES[locale]()).toEqual(resources[locale]);
  });
});
