import type { LogCursor } from './access-log-reader.js';

/**
 * A position in the access log that reading starts before (a restart reads again from an earlier
 * cursor): tells, line by line in reading order, whether a line ends after the mark. The reader
 * goes through the start's file, then the newer ones (access-log-reader.ts): a line of the mark's
 * file is after it past its offset; a line of another file is before it until the mark's file was
 * reached, after it once it was left; a line of a third file means the mark's file was never
 * reached (rotated away): the mark is passed.
 */
export class LogMark {
  private passed: boolean;
  private reached: boolean;
  /** The start's file (null: none yet, NO_FILE: the first file read is the start's). */
  private startInode: string | null;

  constructor(
    start: LogCursor,
    private readonly mark: LogCursor | null,
  ) {
    this.passed = mark === null || mark.inode === '0' || (mark.inode === start.inode && mark.offset <= start.offset);
    this.reached = mark !== null && mark.inode === start.inode;
    this.startInode = start.inode === '0' ? null : start.inode;
  }

  /** Whether the line ending at `end` comes after the mark (once true, true for every later line). */
  after(end: LogCursor): boolean {
    if (this.passed) return true;
    const mark = this.mark as LogCursor;
    if (this.startInode === null) this.startInode = end.inode;
    if (end.inode === mark.inode) {
      this.reached = true;
      if (end.offset > mark.offset) this.passed = true;
    } else if (this.reached || end.inode !== this.startInode) {
      this.passed = true;
    }
    return this.passed;
  }
}
