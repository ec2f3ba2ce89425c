import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LUA_DIR } from './helpers/edge.js';

// init.lua loads every module in the nginx master: the workers run as an unprivileged user and
// must never read a Lua file themselves (a lua directory they cannot read would fail the request).
// A module is loaded when init.lua requires it, or when a loaded module requires it at its top.
describe('modules loaded in the master', () => {
  it('covers every module of lua/rampart', async () => {
    const dir = path.join(LUA_DIR, 'rampart');
    const modules = (await readdir(dir)).filter((f) => f.endsWith('.lua')).map((f) => f.slice(0, -4));
    const source = new Map(
      await Promise.all(modules.map(async (m) => [m, await readFile(path.join(dir, `${m}.lua`), 'utf8')] as const)),
    );
    const topLevelRequires = (text: string, indented: boolean) =>
      [...text.matchAll(indented ? /require[ (]"rampart\.(\w+)"/g : /^local \w+ = require "rampart\.(\w+)"/gm)].map(
        (m) => m[1] as string,
      );
    const loaded = new Set<string>(['init']);
    const queue = topLevelRequires(source.get('init') ?? '', true);
    while (queue.length > 0) {
      const next = queue.pop() as string;
      if (loaded.has(next)) continue;
      loaded.add(next);
      queue.push(...topLevelRequires(source.get(next) ?? '', false));
    }
    expect(modules.filter((m) => !loaded.has(m))).toEqual([]);
  });
});
