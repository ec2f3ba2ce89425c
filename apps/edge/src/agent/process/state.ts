import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { type EdgeSnapshot, edgeSnapshotSchema } from '@rampart/contract';
import { z } from 'zod';
import { ADMIN_SECRET_RE } from '../../data-plane/admin-client.js';
import { formatPath } from '../../data-plane/schema.js';

/**
 * The first directory above `dir` that others cannot search (no o+x), with its mode; null when
 * every one can be. nginx's workers run as `nobody` under a root master: they write request
 * bodies, proxy buffers and the cache into the prefix's temp directories below the state
 * directory, and a parent they cannot pass makes each such write fail with 500 (a data-plane push
 * over 16 MiB, a large upload, a cached response) while small requests work.
 */
export async function blockedAncestor(dir: string): Promise<{ dir: string; mode: string } | null> {
  let at = path.dirname(path.resolve(dir));
  for (;;) {
    const { mode } = await stat(at);
    if ((mode & 0o001) === 0) return { dir: at, mode: (mode & 0o7777).toString(8).padStart(4, '0') };
    const up = path.dirname(at);
    if (up === at) return null;
    at = up;
  }
}

/**
 * What the agent keeps in its state directory:
 *
 *   <state>/credentials.json          {nodeId, nodeSecret, controlPlane}            0600
 *   <state>/snapshots/                the last good snapshots                        0700
 *   <state>/snapshots/<version>.json  one applied snapshot (it holds private keys)   0600
 *   <state>/snapshots/<version>.hmac  HMAC-SHA256 of that file's bytes (key: the admin secret) 0600
 *   <state>/snapshots/current         the version of the active snapshot             0600
 *   <state>/nginx/                    nginx's prefix (see NginxProcess)              0755
 *   <state>/admin.secret              the node's admin secret (nginx's master reads it) 0600
 *   <state>/admin/                    nginx's admin socket (admin.sock)              0700
 *   <state>/geo/<sha256>.mmdb         the operator's geo database (agent/geo-database.ts) 0755/0644
 *   <state>/reputation/<sha256>.bin   the operator's reputation list (agent/reputation-list.ts) 0755/0644
 *   <state>/events/                   the spool of request-event batches (agent/event-spool.ts) 0700
 *
 * Every file is written atomically: a temp file in the same directory, fsync, rename over the
 * target, fsync of the directory. A snapshot file is written only after it applied, so every
 * snapshot on disk is a good one.
 */

export const SNAPSHOTS_KEPT = 3;
const TMP_MARK = '.tmp-';
/** A temporary file writeFileAtomic left behind (a crash between write and rename): safe to delete. */
export const isAtomicTemp = (name: string) => name.includes(TMP_MARK);

export const credentialsSchema = z.object({
  nodeId: z.number().int(),
  nodeSecret: z.string().min(1),
  controlPlane: z.string().min(1),
});
export type Credentials = z.infer<typeof credentialsSchema>;

/** Writes `data` to `file` atomically with `mode` (temp file + fsync + rename + directory fsync). */
export async function writeFileAtomic(file: string, data: string | Uint8Array, mode: number): Promise<void> {
  const tmp = `${file}${TMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`;
  const handle = await open(tmp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await syncDir(path.dirname(file));
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A stored snapshot that cannot be used (unreadable, not JSON, or refused by the schema). */
export class StoredSnapshotError extends Error {
  override readonly name = 'StoredSnapshotError';
}

/** Validates a snapshot with the contract's schema; throws naming the first bad field. */
export function parseSnapshot(value: unknown): EdgeSnapshot {
  const result = edgeSnapshotSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new StoredSnapshotError(`${formatPath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}

export class StateDir {
  readonly dir: string;
  /**
   * The key of the stored snapshots' digests (the admin secret, set at start): a snapshot file
   * whose bytes do not match its digest (edited on disk) is refused on restore.
   */
  snapshotKey: string | null = null;

  constructor(dir: string) {
    this.dir = dir;
  }

  get credentialsPath(): string {
    return path.join(this.dir, 'credentials.json');
  }

  get snapshotsDir(): string {
    return path.join(this.dir, 'snapshots');
  }

  get currentPointerPath(): string {
    return path.join(this.snapshotsDir, 'current');
  }

  get adminSecretPath(): string {
    return path.join(this.dir, 'admin.secret');
  }

  /** The directory of nginx's admin socket: only the agent's user (and root) may enter it. */
  get adminSocketDir(): string {
    return path.join(this.dir, 'admin');
  }

  /** Where the geo database is kept: nginx's workers (`nobody`) read it, so 0755 and 0644 files. */
  get geoDir(): string {
    return path.join(this.dir, 'geo');
  }

  /** Where the reputation list is kept (read by nginx's workers too, as the geo database). */
  get reputationDir(): string {
    return path.join(this.dir, 'reputation');
  }

  /** The spool of request events (event-spool.ts keeps it). */
  get eventsDir(): string {
    return path.join(this.dir, 'events');
  }

  /** The spool of layer-4 counter batches (l4-counter-spool.ts keeps it). */
  /** The data plane as entries (plane-log.ts), 0700. */
  get planeDir(): string {
    return path.join(this.dir, 'plane');
  }

  get l4CountersDir(): string {
    return path.join(this.dir, 'l4counters');
  }

  /** nginx's access log (render.ts), read by the event collector. */
  get accessLogPath(): string {
    return path.join(this.nginxPrefix, 'logs/access.log');
  }

  get adminSocketPath(): string {
    return path.join(this.adminSocketDir, 'admin.sock');
  }

  /**
   * The node's admin secret: read from its file, or generated (32 random bytes, hex) and written
   * 0600 on the first start. Kept across restarts: nginx's master holds the one it read last.
   */
  async adminSecret(): Promise<string> {
    try {
      const text = (await readFile(this.adminSecretPath, 'utf8')).trim();
      if (ADMIN_SECRET_RE.test(text)) {
        await chmod(this.adminSecretPath, 0o600);
        return text;
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const secret = randomBytes(32).toString('hex');
    await writeFileAtomic(this.adminSecretPath, `${secret}\n`, 0o600);
    return secret;
  }

  get nginxPrefix(): string {
    return path.join(this.dir, 'nginx');
  }

  snapshotPath(version: string): string {
    return path.join(this.snapshotsDir, `${version}.json`);
  }

  digestPath(version: string): string {
    return path.join(this.snapshotsDir, `${version}.hmac`);
  }

  private digestOf(text: string): string {
    if (this.snapshotKey === null) throw new StoredSnapshotError('no key for the snapshot digests');
    return createHmac('sha256', this.snapshotKey).update(text, 'utf8').digest('hex');
  }

  /**
   * Creates the directories and removes temp files a crash left behind. The state directory gets
   * the search bit for others: nginx's workers run as `nobody` under a root master and must reach
   * the prefix's temp directories; everything secret below it is 0600 or in the 0700 snapshots dir.
   */
  async prepare(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o755 });
    const { mode } = await stat(this.dir);
    if ((mode & 0o011) !== 0o011) await chmod(this.dir, (mode & 0o7777) | 0o011);
    for (const dir of [this.snapshotsDir, this.adminSocketDir, this.planeDir]) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await chmod(dir, 0o700);
    }
    await mkdir(this.geoDir, { recursive: true, mode: 0o755 });
    await chmod(this.geoDir, 0o755);
    await mkdir(this.reputationDir, { recursive: true, mode: 0o755 });
    await chmod(this.reputationDir, 0o755);
    for (const dir of [this.dir, this.snapshotsDir, this.planeDir, this.geoDir, this.reputationDir]) {
      for (const name of await readdir(dir)) {
        if (isAtomicTemp(name)) await rm(path.join(dir, name), { force: true });
      }
    }
  }

  async readCredentials(): Promise<Credentials | null> {
    let text: string;
    try {
      text = await readFile(this.credentialsPath, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return credentialsSchema.parse(JSON.parse(text));
  }

  async writeCredentials(credentials: Credentials): Promise<void> {
    await writeFileAtomic(this.credentialsPath, `${JSON.stringify(credentials, null, 2)}\n`, 0o600);
  }

  /** The version `current` points at, or null. */
  async currentVersion(): Promise<string | null> {
    try {
      const version = (await readFile(this.currentPointerPath, 'utf8')).trim();
      return /^[0-9a-f]{32}$/.test(version) ? version : null;
    } catch {
      return null;
    }
  }

  async readSnapshot(version: string): Promise<EdgeSnapshot> {
    let text: string;
    try {
      text = await readFile(this.snapshotPath(version), 'utf8');
    } catch (err) {
      throw new StoredSnapshotError(`cannot read snapshot ${version}: ${(err as Error).message}`);
    }
    let digest: string;
    try {
      digest = (await readFile(this.digestPath(version), 'utf8')).trim();
    } catch (err) {
      throw new StoredSnapshotError(`snapshot ${version} has no digest: ${(err as Error).message}`);
    }
    const expected = Buffer.from(this.digestOf(text), 'utf8');
    const found = Buffer.from(digest, 'utf8');
    if (found.length !== expected.length || !timingSafeEqual(found, expected)) {
      throw new StoredSnapshotError(`snapshot ${version} does not match its digest (changed on disk)`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new StoredSnapshotError(`snapshot ${version} is not JSON: ${(err as Error).message}`);
    }
    const snapshot = parseSnapshot(value);
    if (snapshot.version !== version)
      throw new StoredSnapshotError(`snapshot file ${version} holds ${snapshot.version}`);
    return snapshot;
  }

  /** Versions of the stored snapshots, newest first (by the time they were written). */
  async storedVersions(): Promise<string[]> {
    const entries: { version: string; mtime: number }[] = [];
    for (const name of await readdir(this.snapshotsDir)) {
      const match = name.match(/^([0-9a-f]{32})\.json$/);
      if (!match?.[1]) continue;
      try {
        entries.push({ version: match[1], mtime: (await stat(path.join(this.snapshotsDir, name))).mtimeMs });
      } catch {
        // Removed meanwhile.
      }
    }
    return entries.sort((a, b) => b.mtime - a.mtime).map((e) => e.version);
  }

  /**
   * Records a snapshot that applied: writes it (0600), points `current` at it and keeps the last
   * {@link SNAPSHOTS_KEPT} good ones.
   */
  async saveGood(snapshot: EdgeSnapshot): Promise<void> {
    const text = JSON.stringify(snapshot);
    await writeFileAtomic(this.snapshotPath(snapshot.version), text, 0o600);
    await writeFileAtomic(this.digestPath(snapshot.version), `${this.digestOf(text)}\n`, 0o600);
    await writeFileAtomic(this.currentPointerPath, `${snapshot.version}\n`, 0o600);
    const versions = (await this.storedVersions()).filter((v) => v !== snapshot.version);
    for (const old of versions.slice(SNAPSHOTS_KEPT - 1)) await this.removeSnapshot(old);
  }

  private async removeSnapshot(version: string): Promise<void> {
    await rm(this.snapshotPath(version), { force: true });
    await rm(this.digestPath(version), { force: true });
  }

  /** Forgets every stored snapshot and the `current` pointer (a reset fetches everything again). */
  async dropSnapshots(): Promise<void> {
    for (const version of await this.storedVersions()) await this.removeSnapshot(version);
    await rm(this.currentPointerPath, { force: true });
    await syncDir(this.snapshotsDir);
  }

  /**
   * The snapshot to serve at start-up: the one `current` points at, else the newest stored one that
   * still validates. `onRefused` hears about each stored snapshot that could not be used.
   */
  async loadGood(onRefused: (version: string, err: Error) => void): Promise<EdgeSnapshot | null> {
    const current = await this.currentVersion();
    const candidates = [...(current ? [current] : []), ...(await this.storedVersions()).filter((v) => v !== current)];
    for (const version of candidates) {
      try {
        return await this.readSnapshot(version);
      } catch (err) {
        onRefused(version, err as Error);
      }
    }
    return null;
  }
}
