import { randomBytes, randomInt } from 'node:crypto';

/**
 * A small anti-aliased rasteriser for the challenge images: an RGB canvas with an optional alpha
 * channel, thick line segments (capsules), circles and per-pixel access. Coverage is computed from
 * the distance to the shape's edge (one pixel of soft edge), which is all these images need.
 */

export type Rgb = readonly [number, number, number];

/** A fast generator for the images' details, seeded from the system's CSPRNG (xorshift128+). */
export class Random {
  private s0: bigint;
  private s1: bigint;
  constructor(seed: Buffer = randomBytes(16)) {
    this.s0 = seed.readBigUInt64LE(0) | 1n;
    this.s1 = seed.readBigUInt64LE(8) | 2n;
  }
  /** A float in [0, 1). */
  next(): number {
    let s1 = this.s0;
    const s0 = this.s1;
    this.s0 = s0;
    s1 ^= (s1 << 23n) & 0xffffffffffffffffn;
    s1 ^= s1 >> 17n;
    s1 ^= s0 ^ (s0 >> 26n);
    this.s1 = s1;
    return Number(((s0 + s1) & 0xffffffffffffffffn) >> 11n) / 2 ** 53;
  }
  /** A float in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
}

/** An unpredictable integer in [min, max] (answers: from the CSPRNG directly). */
export function secureInt(min: number, max: number): number {
  return randomInt(min, max + 1);
}

export class Canvas {
  readonly rgb: Uint8ClampedArray;
  readonly alpha: Uint8ClampedArray | null;
  constructor(
    readonly width: number,
    readonly height: number,
    withAlpha = false,
  ) {
    this.rgb = new Uint8ClampedArray(width * height * 3);
    this.alpha = withAlpha ? new Uint8ClampedArray(width * height) : null;
  }

  /** A vertical-diagonal gradient from `a` (top left) to `b` (bottom right). */
  gradient(a: Rgb, b: Rgb): void {
    const span = this.width + this.height;
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        const t = (x + y) / span;
        const i = (y * this.width + x) * 3;
        this.rgb[i] = a[0] + (b[0] - a[0]) * t;
        this.rgb[i + 1] = a[1] + (b[1] - a[1]) * t;
        this.rgb[i + 2] = a[2] + (b[2] - a[2]) * t;
      }
    }
  }

  /** Mixes `color` into pixel (x, y) with weight `coverage` (0–1). */
  blend(x: number, y: number, color: Rgb, coverage: number): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || coverage <= 0) return;
    const c = Math.min(coverage, 1);
    const i = (y * this.width + x) * 3;
    this.rgb[i] = (this.rgb[i] as number) * (1 - c) + color[0] * c;
    this.rgb[i + 1] = (this.rgb[i + 1] as number) * (1 - c) + color[1] * c;
    this.rgb[i + 2] = (this.rgb[i + 2] as number) * (1 - c) + color[2] * c;
  }

  /** A segment `width` pixels thick with round ends, `opacity` 0–1. */
  segment(x0: number, y0: number, x1: number, y1: number, width: number, color: Rgb, opacity = 1): void {
    const r = width / 2;
    const minX = Math.max(0, Math.floor(Math.min(x0, x1) - r - 1));
    const maxX = Math.min(this.width - 1, Math.ceil(Math.max(x0, x1) + r + 1));
    const minY = Math.max(0, Math.floor(Math.min(y0, y1) - r - 1));
    const maxY = Math.min(this.height - 1, Math.ceil(Math.max(y0, y1) + r + 1));
    const dx = x1 - x0;
    const dy = y1 - y0;
    const len2 = dx * dx + dy * dy || 1;
    for (let y = minY; y <= maxY; y++) {
      for (let x = minX; x <= maxX; x++) {
        const px = x + 0.5 - x0;
        const py = y + 0.5 - y0;
        const t = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
        const ex = px - t * dx;
        const ey = py - t * dy;
        const d = Math.sqrt(ex * ex + ey * ey);
        this.blend(x, y, color, (r + 0.5 - d) * opacity);
      }
    }
  }

  /** A polyline through `points` (x, y pairs). */
  polyline(points: readonly (readonly [number, number])[], width: number, color: Rgb, opacity = 1): void {
    for (let i = 1; i < points.length; i++) {
      const [x0, y0] = points[i - 1] as readonly [number, number];
      const [x1, y1] = points[i] as readonly [number, number];
      this.segment(x0, y0, x1, y1, width, color, opacity);
    }
  }

  /** A filled circle. */
  circle(cx: number, cy: number, radius: number, color: Rgb, opacity = 1): void {
    const minX = Math.max(0, Math.floor(cx - radius - 1));
    const maxX = Math.min(this.width - 1, Math.ceil(cx + radius + 1));
    const minY = Math.max(0, Math.floor(cy - radius - 1));
    const maxY = Math.min(this.height - 1, Math.ceil(cy + radius + 1));
    for (let y = minY; y <= maxY; y++) {
      for (let x = minX; x <= maxX; x++) {
        const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
        this.blend(x, y, color, (radius + 0.5 - d) * opacity);
      }
    }
  }

  /** The PNG's pixel bytes: RGB, or RGBA when the canvas has an alpha channel. */
  pixels(): Uint8Array {
    if (!this.alpha) return new Uint8Array(this.rgb.buffer, this.rgb.byteOffset, this.rgb.length);
    const out = new Uint8Array(this.width * this.height * 4);
    for (let p = 0; p < this.width * this.height; p++) {
      out[p * 4] = this.rgb[p * 3] as number;
      out[p * 4 + 1] = this.rgb[p * 3 + 1] as number;
      out[p * 4 + 2] = this.rgb[p * 3 + 2] as number;
      out[p * 4 + 3] = this.alpha[p] as number;
    }
    return out;
  }
}
