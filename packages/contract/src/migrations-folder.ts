import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The control plane's `drizzle` migrations folder, found by walking up from `from` (Node only:
 * `@rampart/contract/migrations-folder`, never imported by the console). The migrations are read at
 * run time beside the server's package, not built into its bundle, so the same walk serves the
 * server running from src/ (tsx, tests) or dist/ (its bundle), and the edge suite's control-plane
 * templates, which key a template on the migrations of the bundle they start. Null when there is none
 * within six folders above.
 */
export function findMigrationsFolder(from: string): string | null {
  let dir = from;
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'drizzle');
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = path.dirname(dir);
  }
  return null;
}
