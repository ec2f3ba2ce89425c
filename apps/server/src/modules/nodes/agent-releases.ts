import { createHash } from 'node:crypto';
import { lstat, open, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  bundleVersion,
  RELEASE_BUNDLE_PATH,
  RELEASE_LIMITS,
  RELEASE_LUA_ENTRY,
  type ReleaseManifest,
  releaseManifestSchema,
  releasePathSchema,
} from '@rampart/contract';

interface CachedFile {
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
}

/**
 * The agent release this control plane serves: the agent package directory it was told about
 * (`RAMPART_AGENT_RELEASE_DIR`, by default the repository's apps/edge) holding the built bundle
 * (`dist/rampart-edge.js`, whose second line names its version) and the Lua package (`lua/`).
 * Only a release of the control plane's own version is served. The directory is read on each call,
 * so a rebuilt agent is picked up; hashes are kept while a file's size and mtime stay the same.
 */
export class AgentReleases {
  private readonly hashes = new Map<string, CachedFile>();

  constructor(
    private readonly dir: string | null,
    readonly version: string,
  ) {}

  /** The manifest of the release of the control plane's version, or null when there is none. */
  async manifest(): Promise<ReleaseManifest | null> {
    if (this.dir === null) return null;
    const dir = this.dir;
    let head: string;
    try {
      const handle = await open(path.join(dir, RELEASE_BUNDLE_PATH), 'r');
      try {
        const buffer = Buffer.alloc(512);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        head = buffer.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
    } catch {
      return null;
    }
    if (bundleVersion(head) !== this.version) return null;
    const paths = [RELEASE_BUNDLE_PATH, ...(await this.walk(dir, 'lua'))];
    if (!paths.includes(RELEASE_LUA_ENTRY)) return null;
    const files = [];
    for (const relative of paths) {
      const file = await this.describe(dir, relative);
      if (!file) return null;
      files.push({ path: file.path, sha256: file.sha256, size: file.size });
    }
    const checked = releaseManifestSchema.safeParse({ version: this.version, files });
    return checked.success ? checked.data : null;
  }

  /** The bytes of one file of the served release; null when `version` or `relative` is not in its manifest. */
  async file(version: string, relative: string): Promise<Buffer | null> {
    const manifest = await this.manifest();
    if (!manifest || manifest.version !== version || this.dir === null) return null;
    const entry = manifest.files.find((f) => f.path === relative);
    if (!entry) return null;
    // Only paths of the manifest, which walk() built from regular files below the release directory.
    return readFile(path.join(this.dir, entry.path));
  }

  /** Regular files below `dir/sub`, as release paths; symbolic links and odd names are left out. */
  private async walk(dir: string, sub: string): Promise<string[]> {
    const found: string[] = [];
    const visit = async (relative: string) => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await readdir(path.join(dir, relative), { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        const next = `${relative}/${entry.name}`;
        if (entry.isDirectory()) await visit(next);
        else if (entry.isFile() && releasePathSchema.safeParse(next).success) found.push(next);
        if (found.length > RELEASE_LIMITS.files) return;
      }
    };
    await visit(sub);
    return found;
  }

  private async describe(dir: string, relative: string): Promise<CachedFile | null> {
    const full = path.join(dir, relative);
    let info: Awaited<ReturnType<typeof lstat>>;
    try {
      info = await lstat(full);
    } catch {
      return null;
    }
    if (!info.isFile() || info.size > RELEASE_LIMITS.fileBytes) return null;
    const cached = this.hashes.get(relative);
    if (cached && cached.size === info.size && cached.mtimeMs === info.mtimeMs) return cached;
    const bytes = await readFile(full);
    const file = {
      path: relative,
      size: bytes.length,
      mtimeMs: info.mtimeMs,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
    this.hashes.set(relative, file);
    return file;
  }
}
