import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { type PlaneDelta, planeDeltaSchema, planeEntrySchema, planeMetaSchema } from '@rampart/contract';
import { z } from 'zod';
import { LuaPlane, type PlaneState } from '../../data-plane/lua-plane.js';
import { writeFileAtomic } from '../process/state.js';

/**
 * The data plane on disk (docs/data-plane-deltas.md "Edge"): `base.json`, a whole plane at one
 * sequence (written atomically), and `deltas.jsonl`, every delta taken after it, appended and
 * fsync'ed before it goes to nginx. A restart loads the base and replays the log. Each file line is
 * signed with the node's admin secret (HMAC-SHA256, as the stored snapshots are): a file changed on
 * disk is not served. A line cut short by a crash ends the replay there (the poll brings the rest).
 * The log is folded into a new base past FOLD_DELTAS deltas or FOLD_BYTES bytes.
 */

export const FOLD_DELTAS = 10_000;
export const FOLD_BYTES = 64 * 1024 * 1024;

const baseSchema = z.object({
  to: z.string().regex(/^[0-9]{1,19}$/),
  meta: planeMetaSchema,
  metaHash: z.string(),
  planeHash: z.string(),
  entries: z.array(planeEntrySchema),
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export class PlaneLog {
  private deltas = 0;
  private bytes = 0;

  constructor(
    readonly dir: string,
    /** The signing key (the admin secret); read when used, it is set at start. */
    private readonly key: () => string | null,
  ) {}

  private get basePath(): string {
    return path.join(this.dir, 'base.json');
  }

  private get logPath(): string {
    return path.join(this.dir, 'deltas.jsonl');
  }

  /** What the plane takes on disk (its base and the deltas after it), in bytes. */
  async diskBytes(): Promise<number> {
    const bytes = async (file: string) => (await stat(file).catch(() => null))?.size ?? 0;
    return (await bytes(this.basePath)) + (await bytes(this.logPath));
  }

  private sign(text: string): string {
    const key = this.key();
    if (key === null) throw new Error('no key for the data plane on disk');
    return createHmac('sha256', key).update(text, 'utf8').digest('hex');
  }

  private signed(line: string): string | null {
    const space = line.indexOf(' ');
    if (space !== 64) return null;
    const text = line.slice(65);
    const expected = Buffer.from(this.sign(text));
    const found = Buffer.from(line.slice(0, 64));
    return found.length === expected.length && timingSafeEqual(found, expected) ? text : null;
  }

  /**
   * The plane on disk, or null (none, or a base that does not read or match its signature).
   * `problem` hears what was left out.
   */
  async load(problem: (message: string) => void): Promise<LuaPlane | null> {
    let baseText: string;
    try {
      baseText = await readFile(this.basePath, 'utf8');
    } catch {
      return null;
    }
    const text = this.signed(baseText.trimEnd());
    if (text === null) {
      problem('the stored data plane does not match its signature (changed on disk): not served');
      return null;
    }
    const parsed = baseSchema.safeParse(parseJson(text));
    if (!parsed.success) {
      problem(`the stored data plane does not read: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return null;
    }
    const state: PlaneState = {
      ...parsed.data,
      entries: new Map(parsed.data.entries.map((e) => [`${e.kind}\0${e.key}`, e])),
    };
    const plane = LuaPlane.restore(state);
    let logText = '';
    try {
      logText = await readFile(this.logPath, 'utf8');
    } catch {
      // No delta since the base.
    }
    this.deltas = 0;
    this.bytes = 0;
    let goodBytes = 0;
    for (const line of logText.split('\n')) {
      if (line === '') break;
      const body = this.signed(line);
      const delta = body === null ? null : planeDeltaSchema.safeParse(parseJson(body));
      if (!delta?.success) {
        problem(`the stored data-plane log stops at an unreadable line after ${this.deltas} deltas`);
        break;
      }
      try {
        plane.applyDelta(delta.data);
      } catch (err) {
        problem(`the stored data-plane log stops at a delta that does not apply: ${(err as Error).message}`);
        break;
      }
      this.deltas++;
      goodBytes += Buffer.byteLength(line, 'utf8') + 1;
    }
    this.bytes = goodBytes;
    // What did not replay goes: the next delta is appended after the last good one.
    if (goodBytes < Buffer.byteLength(logText, 'utf8')) await this.truncate(goodBytes);
    return plane;
  }

  private async truncate(size: number): Promise<void> {
    const handle = await open(this.logPath, 'r+');
    try {
      await handle.truncate(size);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Writes `plane` as the new base and empties the log. */
  async writeBase(plane: LuaPlane): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const text = JSON.stringify(plane.toJSON());
    await writeFileAtomic(this.basePath, `${this.sign(text)} ${text}\n`, 0o600);
    await writeFileAtomic(this.logPath, '', 0o600);
    this.deltas = 0;
    this.bytes = 0;
  }

  /** Appends `delta` (checked already) and syncs it to disk; folds the log when it grew past its bound. */
  async append(delta: PlaneDelta, plane: LuaPlane): Promise<void> {
    if (this.deltas + 1 > FOLD_DELTAS || this.bytes > FOLD_BYTES) {
      // `plane` has the delta applied: the new base holds it.
      await this.writeBase(plane);
      return;
    }
    const text = JSON.stringify(delta);
    const line = `${this.sign(text)} ${text}\n`;
    const handle = await open(this.logPath, 'a', 0o600);
    try {
      await handle.appendFile(line, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    this.deltas++;
    this.bytes += Buffer.byteLength(line, 'utf8');
  }

  /** Forgets the plane on disk (a reset fetches it again). */
  async drop(): Promise<void> {
    await rm(this.basePath, { force: true });
    await rm(this.logPath, { force: true });
  }

  /** The log's size, for the status (deltas since the base, bytes). */
  async size(): Promise<{ deltas: number; bytes: number }> {
    const bytes = (await stat(this.logPath).catch(() => null))?.size ?? 0;
    return { deltas: this.deltas, bytes };
  }
}
