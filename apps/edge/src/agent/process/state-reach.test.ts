import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { blockedAncestor } from './state.js';

describe('blockedAncestor (can nginx`s workers reach the state directory?)', () => {
  let root = '';
  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('names the first parent others cannot search, and nothing once every parent can be', async () => {
    // mkdtemp makes the directory 0700, as the edge benchmark's work directory was.
    root = await mkdtemp(path.join(tmpdir(), 'rampart-reach-'));
    const state = path.join(root, 'a', 'edge');
    await mkdir(state, { recursive: true, mode: 0o755 });
    await chmod(path.join(root, 'a'), 0o755);
    expect(await blockedAncestor(state)).toEqual({ dir: root, mode: '0700' });
    await chmod(path.join(root, 'a'), 0o750);
    expect(await blockedAncestor(state)).toEqual({ dir: path.join(root, 'a'), mode: '0750' });
    await chmod(path.join(root, 'a'), 0o711);
    await chmod(root, 0o755);
    expect(await blockedAncestor(state)).toBeNull();
  });
});
