import { crc32, deflateSync } from 'node:zlib';

/**
 * A PNG encoder for the challenge images (8-bit RGB or RGBA, no interlace): rows filtered with Paeth
 * for photos-like content, compressed with zlib. No dependency: the agent draws its own images.
 */

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Encodes `pixels` (width × height × channels bytes, row by row; 3 = RGB, 4 = RGBA) as a PNG. */
export function encodePng(width: number, height: number, channels: 3 | 4, pixels: Uint8Array): Buffer {
  if (pixels.length !== width * height * channels) throw new Error('pixel buffer size does not match the image');
  const stride = width * channels;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const out = y * (stride + 1);
    raw[out] = 4; // Paeth
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? (pixels[row + x - channels] as number) : 0;
      const b = y > 0 ? (pixels[row - stride + x] as number) : 0;
      const c = x >= channels && y > 0 ? (pixels[row - stride + x - channels] as number) : 0;
      raw[out + 1 + x] = ((pixels[row + x] as number) - paeth(a, b, c)) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = channels === 4 ? 6 : 2; // RGBA or RGB
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
