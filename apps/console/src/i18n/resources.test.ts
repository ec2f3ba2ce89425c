import { LOCALES } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { NAMESPACES, resources } from './resources';
import { LOAD_ENTRY_RESOURCES, LOAD_RESOURCES } from './resources/load';
import { ENTRY_NAMESPACES } from './resources/namespaces';

/**
 * Every text of a resource tree with its dotted path, e.g. `notFound.title`. Keys may hold dots
 * themselves (`auditActions` is keyed by route id), so a path is not split again to find its text.
 */
function leaves(tree: object, prefix = ''): [path: string, text: unknown][] {
  return Object.entries(tree).flatMap(([key, value]): [string, unknown][] =>
    typeof value === 'object' && value !== null ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

function keyPaths(tree: object): string[] {
  return leaves(tree).map(([path]) => path);
}

describe('interface texts', () => {
  const all = new Set(LOCALES.flatMap((locale) => keyPaths(resources[locale])));

  it.each(LOCALES)('%s has every key that any locale has', (locale) => {
    const own = new Set(keyPaths(resources[locale]));
    expect([...all].filter((key) => !own.has(key))).toEqual([]);
  });

  it.each(LOCALES)('%s has a non-empty text for every key', (locale) => {
    const texts = leaves(resources[locale]).map(([, text]) => text);
    expect(texts.filter((text) => typeof text !== 'string' || text.trim() === '')).toEqual([]);
  });

  it('lists every namespace, in the order of the English texts', () => {
    expect(NAMESPACES).toEqual(Object.keys(resources.en_US));
  });

  it.each(LOCALES)('%s loads as a chunk of its own with the same texts', async (locale) => {
    expect(await LOAD_RESOURCES[locale]()).toEqual(resources[locale]);
  });

  it.each(LOCALES)('%s loads its signed-out texts as a smaller chunk with the same texts', async (locale) => {
    const entry = await LOAD_ENTRY_RESOURCES[locale]();
    expect(Object.keys(entry)).toEqual([...ENTRY_NAMESPACES]);
    for (const namespace of ENTRY_NAMESPACES) expect(entry[namespace]).toEqual(resources[locale][namespace]);
  });
});
