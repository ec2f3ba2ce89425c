import { describe, expect, it } from 'vitest';
import { bundleVersion, compareAgentVersions, releasePathSchema, releaseVersionSchema } from './agent-release.js';

describe('agent releases', () => {
  it('orders versions by their dotted numbers and knows no order for the rest', () => {
    expect(compareAgentVersions('1.10.0', '1.9.3')).toBe(1);
    expect(compareAgentVersions('0.1.0', '0.2')).toBe(-1);
    expect(compareAgentVersions('1.2.0', '1.2.0')).toBe(0);
    expect(compareAgentVersions('1.2.0-rc1', '1.2.0')).toBeNull();
    expect(compareAgentVersions('test', '1.0.0')).toBeNull();
  });

  it('reads the version a bundle declares on its second line', () => {
    expect(bundleVersion('#!/usr/bin/env node\n// rampart-edge-version: 0.2.0\nimport x')).toBe('0.2.0');
    expect(bundleVersion('#!/usr/bin/env node\nimport x')).toBeNull();
    expect(bundleVersion('#!/usr/bin/env node\n// rampart-edge-version: ../evil\n')).toBeNull();
  });

  it('accepts release paths below dist/ and lua/ only, and versions that are safe directory names', () => {
    for (const ok of ['dist/rampart-edge.js', 'lua/rampart/init.lua', 'lua/rampart/a_b-c.lua']) {
      expect(releasePathSchema.safeParse(ok).success).toBe(true);
    }
    for (const bad of ['lua/../x', 'lua/./x', '/etc/passwd', 'dist', 'other/x', 'lua//x', 'lua/.hidden', 'lua/x\n']) {
      expect(releasePathSchema.safeParse(bad).success).toBe(false);
    }
    for (const bad of ['..', '.x', 'a/b', 'a b', '1.0+build', ''])
      expect(releaseVersionSchema.safeParse(bad).success).toBe(false);
  });
});
