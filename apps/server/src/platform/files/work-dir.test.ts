import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkDir } from './work-dir.js';

describe('WorkDir', () => {
  const dataDirs: string[] = [];
  afterAll(async () => {
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  it('without a data directory: one temporary directory for concurrent first uses, removed by dispose', async () => {
    const dir = WorkDir.under(undefined, 'work-dir-test');
    const paths = await Promise.all([dir.path(), dir.path(), dir.path()]);
    expect(new Set(paths).size).toBe(1);
    expect(path.basename(paths[0] ?? '')).toMatch(/^rampart-work-dir-test-/);
    await writeFile(path.join(paths[0] ?? '', 'f'), 'x');
    await dir.dispose();
    expect(existsSync(paths[0] ?? '')).toBe(false);
    // Used again after dispose: a new one.
    const again = await dir.path();
    expect(again).not.toBe(paths[0]);
    await dir.dispose();
    expect(existsSync(again)).toBe(false);
  });

  it('with a data directory: its folder, never removed', async () => {
    const data = await mkdtemp(path.join(tmpdir(), 'rampart-work-dir-data-'));
    dataDirs.push(data);
    const dir = WorkDir.under(data, 'exports');
    expect(await dir.path()).toBe(path.join(data, 'exports'));
    await dir.dispose();
    expect(existsSync(data)).toBe(true);
  });
});
