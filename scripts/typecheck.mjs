// `npm run typecheck`: every workspace's own `typecheck` script, as many at once as the machine has
// cores (one tsc uses one core: run one after another they took 164 s of a clean clone's CI on a
// 2-core machine). Each one's output is printed whole when it ends, then a line per failure.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const { workspaces } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
// The workspace globs are `dir/*` or a plain directory; a `*` is expanded one level.
const dirs = workspaces.flatMap((glob) =>
  glob.endsWith('/*')
    ? readdirSync(path.join(root, glob.slice(0, -2)), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => path.join(glob.slice(0, -2), e.name))
    : [glob],
);
/** TypeScript files under a directory (not node_modules or dist): the larger checks start first. */
const sources = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce(
    (n, e) =>
      e.isDirectory()
        ? e.name === 'node_modules' || e.name === 'dist'
          ? n
          : n + sources(path.join(dir, e.name))
        : n + (/\.tsx?$/.test(e.name) ? 1 : 0),
    0,
  );
const jobs = dirs
  .filter((dir) => {
    const file = path.join(root, dir, 'package.json');
    return existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).scripts?.typecheck;
  })
  .map((dir) => ({ dir, size: sources(path.join(root, dir)) }))
  .sort((a, b) => b.size - a.size)
  .map(({ dir }) => dir);

function run(dir) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', 'typecheck', '--silent'], { cwd: path.join(root, dir) });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      if (out) process.stdout.write(out);
      resolve(code === 0 ? null : dir);
    });
  });
}

const failed = [];
const queue = [...jobs];
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), queue.length) }, async () => {
    for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
      const bad = await run(dir);
      if (bad) failed.push(bad);
    }
  }),
);
for (const dir of failed) console.error(`type check failed: ${dir}`);
process.exit(failed.length > 0 ? 1 : 0);
