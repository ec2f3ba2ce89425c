import { z } from 'zod';

/**
 * An agent release: what a node needs to run the agent — the bundle (`dist/rampart-edge.js`) and the
 * Lua package (`lua/...`) — described by a manifest of files with their SHA-256 and size. The control
 * plane serves the release of its own version; an agent downloads it into
 * `<state-dir>/releases/<version>/`, checks every file and restarts onto it (docs/decisions.md,
 * "Node upgrade").
 */

/** A release version: it names a directory on the node, so letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
export const releaseVersionSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[0-9A-Za-z][0-9A-Za-z._-]*$/);

/** A file of a release: below `dist/` or `lua/`, segments that cannot be `.` or `..`. */
export const releasePathSchema = z
  .string()
  .max(200)
  .regex(/^(dist|lua)(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/);

export const RELEASE_LIMITS = {
  files: 500,
  /** The bundle is about 1 MB; a file above this is refused before it is read. */
  fileBytes: 32 * 1024 * 1024,
  totalBytes: 64 * 1024 * 1024,
} as const;

/** The bundle's path inside a release, and a file the Lua package always has. */
export const RELEASE_BUNDLE_PATH = 'dist/rampart-edge.js';
export const RELEASE_LUA_ENTRY = 'lua/rampart/init.lua';

export const releaseFileSchema = z.strictObject({
  path: releasePathSchema,
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().min(0).max(RELEASE_LIMITS.fileBytes),
});

export const releaseManifestSchema = z
  .strictObject({
    version: releaseVersionSchema,
    files: z.array(releaseFileSchema).min(1).max(RELEASE_LIMITS.files),
  })
  .refine((m) => new Set(m.files.map((f) => f.path)).size === m.files.length, { message: 'duplicate path' })
  .refine((m) => m.files.some((f) => f.path === RELEASE_BUNDLE_PATH), { message: `no ${RELEASE_BUNDLE_PATH}` })
  .refine((m) => m.files.reduce((sum, f) => sum + f.size, 0) <= RELEASE_LIMITS.totalBytes, { message: 'too large' });
export type ReleaseManifest = z.infer<typeof releaseManifestSchema>;

/**
 * The bundle's second line names its version (`build.mjs` writes it), so the control plane can tell
 * a release's version without running it.
 */
export const RELEASE_VERSION_MARKER = '// rampart-edge-version: ';

/** The version a bundle's first lines declare, or null. */
export function bundleVersion(head: string): string | null {
  for (const line of head.split('\n').slice(0, 3)) {
    if (!line.startsWith(RELEASE_VERSION_MARKER)) continue;
    const parsed = releaseVersionSchema.safeParse(line.slice(RELEASE_VERSION_MARKER.length).trim());
    return parsed.success ? parsed.data : null;
  }
  return null;
}

/**
 * Orders two agent versions by their leading dotted numbers (`1.10.2` > `1.9`); null when either has
 * none, or the numbers are equal but the versions differ (`1.2.0-rc1` and `1.2.0`): no order is
 * known, which the upgrade treats as "not newer".
 */
export function compareAgentVersions(a: string, b: string): number | null {
  if (a === b) return 0;
  const core = (v: string) => /^\d+(\.\d+)*/.exec(v)?.[0]?.split('.').map(Number) ?? null;
  const x = core(a);
  const y = core(b);
  if (!x || !y) return null;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return null;
}
