// The decoder of a MaxMind DB file's data section and metadata (mmdb-reader.ts reads the file with it).
export type MmdbDecoded = string | number | bigint | boolean | Buffer | MmdbDecoded[] | { [key: string]: MmdbDecoded };

export class MmdbError extends Error {
  override readonly name = 'MmdbError';
}

/** A value's control bytes read: its type, payload size and where the payload starts (absolute). */
interface Header {
  type: number;
  size: number;
  at: number;
  /** For a pointer: the offset it points at, and `at` is just past it. */
  pointer?: number;
}

/** Decodes values of a data section (or the metadata) held in `buf` from `base`. */
export class Decoder {
  constructor(
    private readonly buf: Buffer,
    /** Where offsets (and pointers) count from. */
    private readonly base: number,
    /** Nesting bound: a crafted file cannot recurse without end. */
    private readonly maxDepth = 64,
  ) {}

  private byte(i: number): number {
    const b = this.buf[i];
    if (b === undefined) throw new MmdbError('data runs past the end of the file');
    return b;
  }

  private header(offset: number): Header {
    let at = this.base + offset;
    const ctrl = this.byte(at++);
    let type = ctrl >> 5;
    if (type === 1) {
      // A pointer: size bits say how many bytes follow.
      const ss = (ctrl >> 3) & 3;
      const vvv = ctrl & 7;
      const b = (i: number) => this.byte(at + i);
      let pointer: number;
      if (ss === 0) pointer = (vvv << 8) | b(0);
      else if (ss === 1) pointer = ((vvv << 16) | (b(0) << 8) | b(1)) + 2048;
      else if (ss === 2) pointer = ((vvv << 24) | (b(0) << 16) | (b(1) << 8) | b(2)) + 526_336;
      else pointer = b(0) * 2 ** 24 + ((b(1) << 16) | (b(2) << 8) | b(3));
      return { type, size: 0, at: at + ss + 1, pointer };
    }
    if (type === 0) type = 7 + this.byte(at++);
    let size = ctrl & 31;
    if (size === 29) size = 29 + this.byte(at++);
    else if (size === 30) {
      size = 285 + ((this.byte(at) << 8) | this.byte(at + 1));
      at += 2;
    } else if (size === 31) {
      size = 65_821 + ((this.byte(at) << 16) | (this.byte(at + 1) << 8) | this.byte(at + 2));
      at += 3;
    }
    return { type, size, at };
  }

  /** The offset just past the value at `offset`, read without building it (a pointer is not followed). */
  skip(offset: number, depth = 0): number {
    if (depth > this.maxDepth) throw new MmdbError('data nested too deeply');
    const h = this.header(offset);
    if (h.pointer !== undefined) return h.at - this.base;
    if (h.type === 14) return h.at - this.base;
    if (h.type === 7 || h.type === 11) {
      let next = h.at - this.base;
      const items = h.type === 7 ? h.size * 2 : h.size;
      for (let i = 0; i < items; i++) next = this.skip(next, depth + 1);
      return next;
    }
    if (h.at + h.size > this.buf.length) throw new MmdbError('data runs past the end of the file');
    return h.at + h.size - this.base;
  }

  /**
   * The values of the map at `offset` (a pointer to one followed) whose keys are among `wanted`,
   * decoded; the other values are skipped unread.
   */
  pick(offset: number, wanted: ReadonlySet<string>): Record<string, MmdbDecoded> {
    let h = this.header(offset);
    if (h.pointer !== undefined) h = this.header(h.pointer);
    const out: Record<string, MmdbDecoded> = {};
    if (h.type !== 7) return out;
    let next = h.at - this.base;
    for (let i = 0; i < h.size; i++) {
      const [key, afterKey] = this.decode(next);
      if (typeof key === 'string' && wanted.has(key)) {
        const [value, afterValue] = this.decode(afterKey);
        out[key] = value;
        next = afterValue;
      } else {
        next = this.skip(afterKey);
      }
    }
    return out;
  }

  /** The value at `offset` (from base) and the offset just past it. */
  decode(offset: number, depth = 0): [MmdbDecoded, number] {
    if (depth > this.maxDepth) throw new MmdbError('data nested too deeply');
    const h = this.header(offset);
    if (h.pointer !== undefined) return [this.decode(h.pointer, depth + 1)[0], h.at - this.base];
    const { type, size, at } = h;
    const end = at + size;
    const take = (): Buffer => {
      if (end > this.buf.length) throw new MmdbError('data runs past the end of the file');
      return this.buf.subarray(at, end);
    };
    const uint = (): number | bigint => {
      const bytes = take();
      if (size <= 6) return size === 0 ? 0 : bytes.readUIntBE(0, size);
      let v = 0n;
      for (const b of bytes) v = (v << 8n) | BigInt(b);
      return v;
    };
    switch (type) {
      case 2:
        return [take().toString('utf8'), end - this.base];
      case 3:
        if (size !== 8) throw new MmdbError('a double of the wrong size');
        return [take().readDoubleBE(0), end - this.base];
      case 4:
        return [Buffer.from(take()), end - this.base];
      case 5:
      case 6:
        return [Number(uint()), end - this.base];
      case 8:
        return [size === 0 ? 0 : take().readIntBE(0, Math.min(size, 6)), end - this.base];
      case 9:
      case 10:
        return [BigInt(uint()), end - this.base];
      case 14:
        return [size !== 0, at - this.base];
      case 15:
        if (size !== 4) throw new MmdbError('a float of the wrong size');
        return [take().readFloatBE(0), end - this.base];
      case 7: {
        const out: { [key: string]: MmdbDecoded } = {};
        let next = at - this.base;
        for (let i = 0; i < size; i++) {
          const [key, afterKey] = this.decode(next, depth + 1);
          if (typeof key !== 'string') throw new MmdbError('a map key that is not a string');
          const [value, afterValue] = this.decode(afterKey, depth + 1);
          out[key] = value;
          next = afterValue;
        }
        return [out, next];
      }
      case 11: {
        const out: MmdbDecoded[] = [];
        let next = at - this.base;
        for (let i = 0; i < size; i++) {
          const [value, after] = this.decode(next, depth + 1);
          out.push(value);
          next = after;
        }
        return [out, next];
      }
      default:
        throw new MmdbError(`unknown data type ${type}`);
    }
  }
}
