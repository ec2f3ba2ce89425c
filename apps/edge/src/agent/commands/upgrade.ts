import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readdir, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { RELEASE_BUNDLE_PATH, RELEASE_LUA_ENTRY, type ReleaseManifest, releaseVersionSchema } from '@rampart/contract';
import type { Logger } from '../log.js';
import type { NodeClient } from '../node-api/node-client.js';

/**
 * Installs an agent release (the `upgrade` command). On disk:
 *
 *   <state>/releases/<version>/dist/rampart-edge.js   the release's bundle        0755
 *   <state>/releases/<version>/lua/...                 its Lua package             0644
 *   <state>/releases/current -> <version>              the release to run          (symlink)
 *
 * Every file of the manifest is downloaded into a staging directory (each no larger than its
 * manifest size, its path checked to stay inside), its SHA-256 compared with the manifest's, and
 * the bundle run once with `--version`, which must print the release's version. Only then is the
 * staging directory renamed into place and `current` switched (a temp symlink renamed over it), so
 * a failure at any step leaves the running release as it was. The agent then restarts onto it
 * (release-handoff.ts). The release that ran before is kept for a manual roll-back; older ones go.
 */

const run = promisify(execFile);
const STAGING_MARK = '.staging-';

export type UpgradeStage = 'downloading' | 'verified' | 'switched';

export interface UpgradeContext {
  client: NodeClient;
  stateDir: string;
  log: Logger;
  signal: AbortSignal;
  /** Reports a stage to the control plane; a failure to report does not stop the upgrade. */
  progress: (stage: UpgradeStage, message: string) => Promise<void>;
}

export function releasesDir(stateDir: string): string {
  return path.join(stateDir, 'releases');
}

/** Downloads, checks and switches to the release `version`; answers the path of its bundle. */
export async function installRelease(context: UpgradeContext, version: string): Promise<string> {
  const { client, signal } = context;
  if (!releaseVersionSchema.safeParse(version).success) throw new Error(`not a release version: ${version}`);
  const root = releasesDir(context.stateDir);
  await mkdir(root, { recursive: true, mode: 0o755 });
  for (const name of await readdir(root)) {
    if (name.startsWith(STAGING_MARK)) await rm(path.join(root, name), { recursive: true, force: true });
  }

  await context.progress('downloading', `fetching the manifest of ${version}`);
  const manifest = await client.releaseManifest(signal);
  if (manifest.version !== version) {
    throw new Error(`the control plane now serves ${manifest.version}, not ${version}`);
  }
  if (!manifest.files.some((f) => f.path === RELEASE_LUA_ENTRY))
    throw new Error(`the release has no ${RELEASE_LUA_ENTRY}`);
  const staging = path.join(root, `${STAGING_MARK}${version}-${randomBytes(4).toString('hex')}`);
  try {
    const bytes = await download(context, manifest, staging);
    const bundle = path.join(staging, RELEASE_BUNDLE_PATH);
    const reported = await bundleReports(bundle);
    if (reported !== version) throw new Error(`the downloaded bundle reports ${reported || 'nothing'}, not ${version}`);
    await context.progress(
      'verified',
      `${manifest.files.length} files, ${bytes} bytes: every SHA-256 matches; the bundle reports ${version}`,
    );
    const target = path.join(root, version);
    await rm(target, { recursive: true, force: true });
    await rename(staging, target);
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
  const previous = await switchCurrent(root, version);
  await context.progress('switched', `current → ${version}${previous ? ` (was ${previous})` : ''}`);
  await prune(root, [version, ...(previous ? [previous] : [])]);
  return path.join(root, version, RELEASE_BUNDLE_PATH);
}

async function download(context: UpgradeContext, manifest: ReleaseManifest, staging: string): Promise<number> {
  let total = 0;
  for (const file of manifest.files) {
    const destination = path.resolve(staging, file.path);
    // The contract's path allowlist already keeps `..` out; this is the belt to those braces.
    if (!destination.startsWith(`${staging}${path.sep}`)) throw new Error(`${file.path} leaves the release`);
    const bytes = await context.client.releaseFile(manifest.version, file.path, file.size, context.signal);
    if (bytes.length !== file.size)
      throw new Error(`${file.path}: ${bytes.length} bytes, the manifest says ${file.size}`);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (sha256 !== file.sha256) throw new Error(`${file.path}: SHA-256 ${sha256} differs from the manifest's`);
    await mkdir(path.dirname(destination), { recursive: true, mode: 0o755 });
    await writeFile(destination, bytes, { mode: 0o644, flag: 'wx' });
    total += bytes.length;
  }
  await chmod(path.join(staging, RELEASE_BUNDLE_PATH), 0o755);
  return total;
}

/** What a bundle prints for `--version` ('' when it does not run). */
async function bundleReports(bundle: string): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [bundle, '--version'], { timeout: 20_000, maxBuffer: 4096 });
    return stdout.trim();
  } catch {
    return '';
  }
}

/** Points `current` at `version` atomically; answers the version it pointed at before. */
async function switchCurrent(root: string, version: string): Promise<string | null> {
  const current = path.join(root, 'current');
  const previous = await readlink(current).catch(() => null);
  const tmp = `${current}.tmp-${randomBytes(4).toString('hex')}`;
  await symlink(version, tmp);
  try {
    await rename(tmp, current);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  const dir = await open(root, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
  return previous !== null && previous !== version && releaseVersionSchema.safeParse(previous).success
    ? previous
    : null;
}

/** Removes releases other than `keep` (the new one and the one that ran before it). */
async function prune(root: string, keep: string[]): Promise<void> {
  for (const name of await readdir(root)) {
    if (name === 'current' || keep.includes(name) || !releaseVersionSchema.safeParse(name).success) continue;
    await rm(path.join(root, name), { recursive: true, force: true });
  }
}
