import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDirFromTemplate } from './helpers/control-plane-template.js';

// The template of the control plane's data directory (helpers/control-plane-template.ts), with a
// stand-in for the first start: made once for several files asking at the same moment, copied to
// each without the marker, the store locks or the first start's output.

let work: string;
const made: string[] = [];
/** The test's templates: in its own directory, removed with it. */
const templates = () => path.join(work, 'templates');

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'rampart-template-test-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

describe('the template of a first start', () => {
  it('is made once for files asking at once, and each gets its own copy without the locks and output', async () => {
    // A bundle of its own: a template of its own.
    const bundle = path.join(work, 'main.js');
    await writeFile(bundle, randomBytes(32).toString('hex'));
    let starts = 0;
    const firstStart = async (into: string) => {
      starts += 1;
      await writeFile(path.join(into, 'secret.key'), 'made once');
      await writeFile(path.join(into, 'pglite.lock'), '123');
      await writeFile(path.join(into, 'output.log'), 'Root accounts created');
    };
    const dirs = await Promise.all(
      [1, 2, 3].map(() => dataDirFromTemplate(bundle, 'password', firstStart, templates())),
    );
    made.push(...dirs);
    expect(starts).toBe(1);
    expect(new Set(dirs).size).toBe(3);
    for (const dir of dirs) {
      expect((await readdir(dir)).sort()).toEqual(['secret.key']);
      expect(await readFile(path.join(dir, 'secret.key'), 'utf8')).toBe('made once');
    }
    // A later file copies it without a first start.
    made.push(await dataDirFromTemplate(bundle, 'password', firstStart, templates()));
    expect(starts).toBe(1);
    // Another password (or bundle) is another template.
    made.push(await dataDirFromTemplate(bundle, 'another password', firstStart, templates()));
    expect(starts).toBe(2);
  });

  it('is made again when a migration changes while the bundle stays the same', async () => {
    // The migrations are read at run time from the drizzle folder beside the bundle's package.
    const pkg = path.join(work, 'pkg');
    await mkdir(path.join(pkg, 'dist'), { recursive: true });
    await mkdir(path.join(pkg, 'drizzle', 'meta'), { recursive: true });
    const bundle = path.join(pkg, 'dist', 'main.js');
    await writeFile(bundle, randomBytes(32).toString('hex'));
    await writeFile(path.join(pkg, 'drizzle', 'meta', '_journal.json'), '{"entries":[{"tag":"0000_a"}]}');
    await writeFile(path.join(pkg, 'drizzle', '0000_a.sql'), 'CREATE TABLE a (id int);');
    let starts = 0;
    const firstStart = async (into: string) => {
      starts += 1;
      await writeFile(path.join(into, 'secret.key'), `start ${starts}`);
    };
    made.push(await dataDirFromTemplate(bundle, 'password', firstStart, templates()));
    made.push(await dataDirFromTemplate(bundle, 'password', firstStart, templates()));
    expect(starts).toBe(1);
    await writeFile(path.join(pkg, 'drizzle', '0000_a.sql'), 'CREATE TABLE a (id bigint);');
    const dir = await dataDirFromTemplate(bundle, 'password', firstStart, templates());
    made.push(dir);
    expect(starts).toBe(2);
    expect(await readFile(path.join(dir, 'secret.key'), 'utf8')).toBe('start 2');
  });

  it('leaves no template behind when the first start fails, and the next file makes it', async () => {
    const bundle = path.join(work, 'failing.js');
    await writeFile(bundle, randomBytes(32).toString('hex'));
    await expect(
      dataDirFromTemplate(
        bundle,
        'password',
        async () => {
          throw new Error('the first start failed');
        },
        templates(),
      ),
    ).rejects.toThrow('the first start failed');
    const dir = await dataDirFromTemplate(
      bundle,
      'password',
      async (into) => {
        await writeFile(path.join(into, 'secret.key'), 'second try');
      },
      templates(),
    );
    made.push(dir);
    expect(await readFile(path.join(dir, 'secret.key'), 'utf8')).toBe('second try');
    expect(existsSync(path.join(dir, '.ready'))).toBe(false);
  });
});
