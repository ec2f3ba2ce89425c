import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * antd's InputNumber rewrites an out-of-range value to its `min`/`max` (and a fraction to its
 * `precision`) when it loses focus, so a form saves what nobody typed. Every number box of the
 * console is forms/NumberInput, which has no bounds and leaves refusing to the contract's rules;
 * this walks the console's source so a new raw InputNumber cannot slip in.
 */
const SRC = path.resolve(__dirname, '..');
const SHARED = path.join('forms', 'NumberInput.tsx');
function sources(dir: string): string[] {
  return readdirSync(path.join(SRC, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe('number inputs of the console', () => {
  const files = sources('.');

  it('finds the console source', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain(SHARED);
  });

  it('use the shared NumberInput, never antd InputNumber directly', () => {
    const raw = files.filter(
      (file) =>
        file !== SHARED &&
        /\bInputNumber\b/.test(readFileSync(path.join(SRC, file), 'utf8').replace(/\bNumberInput\w*/g, '')),
    );
    expect(raw).toEqual([]);
  });

  it('give the shared input no bounds of its own: min, max and precision do not reach antd', () => {
    const shared = readFileSync(path.join(SRC, SHARED), 'utf8');
    expect(shared).toMatch(/Omit<InputNumberProps<number>, 'min' \| 'max' \| 'precision'>/);
    const uses = files
      .filter((file) => file !== SHARED)
      .flatMap(
        (file) => readFileSync(path.join(SRC, file), 'utf8').match(/<NumberInput\b[^>]*?\b(min|max|precision)=/g) ?? [],
      );
    expect(uses).toEqual([]);
  });
});
