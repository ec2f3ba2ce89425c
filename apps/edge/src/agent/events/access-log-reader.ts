import { type FileHandle, open, stat } from 'node:fs/promises';
import { ROTATED_LOGS_KEPT } from '../commands/log-rotate.js';

/**
 * Reads the new lines of nginx's access log, in order, across the agent's rotations and restarts
 * (docs/decisions.md "Traffic analytics at the edge"). A position is a cursor: the file's inode and
 * the offset after the last line taken, so it still names the right bytes after the file was
 * renamed. The log rotation (log-rotate.ts) renames `access.log` to `access.log.1` (older ones
 * shift up) and then has nginx reopen its logs; each worker flushes its buffer (flush=1s) into the
 * file it had open before it reopens, so a file that is no longer `access.log` is read to its end
 * and finished only once it has been quiet for `graceMs`, then the next newer file is read from 0.
 * After a restart the saved inode is looked for among `access.log` and its rotated files: the rest
 * of that file is read first, then every newer one.
 *
 * The rotation deletes the oldest file whether it was read or not (log-rotate.ts). The open file
 * is read to its end through its descriptor even once deleted; files newer than it that were
 * deleted before the reader got to them (a reader more than `rotatedKept` rotations behind) are
 * said lost, as is the saved file when a restart finds it gone. Their lines were never read, so
 * how many events they held is not known.
 */

export interface LogCursor {
  /** The file's inode (decimal: 64-bit inodes do not fit a double). */
  inode: string;
  /** Bytes of that file already taken (always at a line's end). */
  offset: number;
}

export interface ReadLine {
  text: string;
  /** The position after this line. */
  end: LogCursor;
}

export interface ReaderNotice {
  /** A file was deleted by the rotation before it was read (or, at a restart, the saved one): its unread lines are lost. */
  lost?: { inode: string };
  /** The live file became shorter than the position (truncated by hand): read again from 0. */
  truncated?: { inode: string; offset: number };
  /** Bytes that never became a line: a finished file's unterminated tail, or a line over the limit. */
  broken?: number;
}

/**
 * The cursor of a reader that started before nginx wrote any log: the first file is read from its
 * start, also after a restart (inode 0 names no file).
 */
export const NO_FILE: LogCursor = { inode: '0', offset: 0 };

/** The longest line taken; a longer run of bytes without a newline is skipped (nginx's lines are far shorter). */
export const MAX_LINE_BYTES = 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;

/**
 * Where the log ends now: `access.log`'s inode and size, or NO_FILE when there is none yet. Taken
 * when the agent starts, before nginx serves: the first start of a node's events reads from there,
 * however long its process takes to come up (nginx writes whole lines, so the size is a line's end).
 * Null when the file could not be looked at: the reader then starts where it first finds the log.
 */
export async function logEnd(file: string): Promise<LogCursor | null> {
  try {
    const info = await stat(file, { bigint: true });
    return { inode: info.ino.toString(), offset: Number(info.size) };
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? NO_FILE : null;
  }
}

async function inodeOf(file: string): Promise<string | null> {
  try {
    return (await stat(file, { bigint: true })).ino.toString();
  } catch {
    return null;
  }
}

export class AccessLogReader {
  private handle: FileHandle | null = null;
  private inode: string | null = null;
  private offset = 0;
  /** Since when the open file, no longer `access.log`, has kept the size `quietSize` (null: it is still the live file). */
  private quietSince: number | null = null;
  private quietSize = 0;
  /** The files newer than the open one when last looked (oldest first): those gone before being opened were lost. */
  private newer: string[] = [];
  /** The cursor to resume from, until the first file is opened. */
  private resumeAt: LogCursor | null;
  /** No cursor on the first start: an `access.log` found then is taken from its end. */
  private skipExisting: boolean;
  private readonly buffer = Buffer.allocUnsafe(CHUNK_BYTES);

  /**
   * `start`: the saved cursor, or null on the very first start: then reading begins at the end of
   * an existing `access.log` (lines written before this node shipped events), or at 0 of the first one.
   */
  constructor(
    private readonly file: string,
    start: LogCursor | null,
    private readonly options: {
      graceMs?: number;
      notice?: (notice: ReaderNotice) => void;
      now?: () => number;
      rotatedKept?: number;
    } = {},
  ) {
    this.resumeAt = start;
    this.skipExisting = start === null;
    if (start !== null) {
      this.inode = start.inode;
      this.offset = start.offset;
    }
  }

  /** The position after the last line returned (null before any file was found). */
  get cursor(): LogCursor | null {
    return this.inode === null ? null : { inode: this.inode, offset: this.offset };
  }

  /** `access.log.N` … `access.log.1`, `access.log`: the files that exist, oldest first, with their inodes. */
  private async chain(): Promise<{ path: string; inode: string }[]> {
    const kept = this.options.rotatedKept ?? ROTATED_LOGS_KEPT;
    const names = [...Array.from({ length: kept }, (_, i) => `${this.file}.${kept - i}`), this.file];
    const found: { path: string; inode: string }[] = [];
    for (const name of names) {
      const inode = await inodeOf(name);
      if (inode !== null) found.push({ path: name, inode });
    }
    return found;
  }

  private async openFile(target: { path: string; inode: string }, offset: number | 'end'): Promise<boolean> {
    let handle: FileHandle;
    try {
      handle = await open(target.path, 'r');
    } catch {
      return false;
    }
    // The name may have moved to another file between the stat and the open: trust the handle.
    const info = await handle.stat({ bigint: true });
    if (info.ino.toString() !== target.inode) {
      await handle.close();
      return false;
    }
    await this.handle?.close();
    this.handle = handle;
    this.inode = target.inode;
    this.offset = offset === 'end' ? Number(info.size) : offset;
    this.quietSince = null;
    this.newer = [];
    return true;
  }

  /**
   * Opens the first file: the saved cursor's wherever rotation moved it, else the oldest file left
   * (the saved one was rotated away), else `access.log` (from its end on the very first start).
   * Called at start-up before nginx serves, so that no line of this run counts as "existing".
   */
  async open(): Promise<void> {
    if (this.handle !== null) return;
    const chain = await this.chain();
    const saved = this.resumeAt;
    if (saved !== null) {
      this.resumeAt = null;
      const at = chain.find((f) => f.inode === saved.inode);
      if (at && (await this.openFile(at, saved.offset))) return;
      if (saved.inode !== NO_FILE.inode) this.options.notice?.({ lost: { inode: saved.inode } });
      const oldest = chain[0];
      if (oldest) await this.openFile(oldest, 0);
      return;
    }
    const skip = this.skipExisting;
    this.skipExisting = false;
    const live = chain.at(-1);
    if (live?.path === this.file) await this.openFile(live, skip ? 'end' : 0);
  }

  /**
   * Up to `maxLines` whole lines after the cursor (fewer when no more are written yet), each with
   * the position after it. Moves on to the next file when the current one is finished.
   */
  async read(maxLines: number): Promise<ReadLine[]> {
    await this.open();
    const lines: ReadLine[] = [];
    if (this.handle === null) return lines;
    this.noteNewer(await this.chain());
    for (let files = 0; files < 16 && lines.length < maxLines; files++) {
      await this.readOpen(maxLines - lines.length, lines);
      if (lines.length >= maxLines || !(await this.advance())) break;
    }
    return lines;
  }

  /** Reads whole lines of the open file from the offset into `into`. */
  private async readOpen(maxLines: number, into: ReadLine[]): Promise<void> {
    const handle = this.handle;
    const inode = this.inode;
    if (handle === null || inode === null) return;
    if ((await handle.stat()).size < this.offset) {
      this.options.notice?.({ truncated: { inode, offset: this.offset } });
      this.offset = 0;
    }
    let taken = 0;
    while (taken < maxLines) {
      const { bytesRead } = await handle.read(this.buffer, 0, CHUNK_BYTES, this.offset);
      if (bytesRead === 0) return;
      const chunk = this.buffer.subarray(0, bytesRead);
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1 && taken < maxLines; nl = chunk.indexOf(10, start)) {
        const text = chunk.toString('utf8', start, nl);
        start = nl + 1;
        into.push({ text, end: { inode, offset: this.offset + start } });
        taken++;
      }
      if (start === 0) {
        if (bytesRead < CHUNK_BYTES) return; // a line still being written: wait for its end
        // A whole chunk without a newline: a line over the limit, skipped.
        this.offset += bytesRead;
        this.options.notice?.({ broken: bytesRead });
        continue;
      }
      this.offset += start;
      if (bytesRead < CHUNK_BYTES) return; // what is left is a line still being written
    }
  }

  /** Remembers the files newer than the open one while it is still among the kept ones. */
  private noteNewer(chain: { inode: string }[]): void {
    const index = chain.findIndex((f) => f.inode === this.inode);
    if (index !== -1) this.newer = chain.slice(index + 1).map((f) => f.inode);
  }

  /**
   * At the open file's end: when it is no longer `access.log` and has kept its size for the
   * grace, opens the next newer file. Answers whether it moved.
   */
  private async advance(): Promise<boolean> {
    const handle = this.handle;
    if (handle === null) return false;
    const chain = await this.chain();
    this.noteNewer(chain);
    const index = chain.findIndex((f) => f.inode === this.inode);
    if (index === chain.length - 1 && chain[index]?.path === this.file) {
      this.quietSince = null;
      return false; // still the live file
    }
    const now = (this.options.now ?? Date.now)();
    const size = (await handle.stat()).size;
    if (this.quietSince === null || size !== this.quietSize) {
      this.quietSince = now;
      this.quietSize = size;
    }
    if (now - this.quietSince < (this.options.graceMs ?? 3000)) return false;
    // The next newer file, or (ours deleted, with every older one) the oldest left.
    const next = index === -1 ? chain[0] : chain[index + 1];
    if (!next) return false;
    // Finished: an unterminated tail will never be completed.
    if (size > this.offset) this.options.notice?.({ broken: size - this.offset });
    if (index === -1) {
      // Ours was deleted: the files that were newer and are older than the oldest left went too,
      // unread. By position, not by presence: the file system gives a deleted file's inode number
      // to the next new file (the next `access.log`).
      for (const inode of this.newer) {
        if (inode === next.inode) break;
        this.options.notice?.({ lost: { inode } });
      }
    }
    return this.openFile(next, 0);
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }
}
