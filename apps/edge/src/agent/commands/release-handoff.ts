import { closeSync, openSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { bundleVersion, RELEASE_BUNDLE_PATH } from '@rampart/contract';
import { releasesDir } from './upgrade.js';

/**
 * The release `<state>/releases/current` points at (installed by an upgrade), with its bundle's
 * real path and the version the bundle declares; null when there is none or it is unreadable.
 */
export function currentRelease(stateDir: string): { version: string; bundle: string } | null {
  try {
    const bundle = realpathSync(path.join(releasesDir(stateDir), 'current', RELEASE_BUNDLE_PATH));
    const fd = openSync(bundle, 'r');
    try {
      const head = Buffer.alloc(512);
      const read = readSync(fd, head, 0, head.length, 0);
      const version = bundleVersion(head.subarray(0, read).toString('utf8'));
      return version === null ? null : { version, bundle };
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/**
 * Whether this agent should hand over to the installed release at start-up: there is one, it is of
 * another version and it is not this very file. The installed agent (the package, the systemd
 * unit's ExecStart) thus always runs what the last upgrade installed.
 */
export function releaseToRun(stateDir: string, self: string, ownVersion: string): string | null {
  const release = currentRelease(stateDir);
  if (release === null || release.version === ownVersion) return null;
  let me: string;
  try {
    me = realpathSync(self);
  } catch {
    me = self;
  }
  return release.bundle === me ? null : release.bundle;
}
