import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CODE_ALPHABET, CODE_HEIGHT, CODE_LENGTH, CODE_WIDTH, codeImage, GLYPHS, newCode } from './code-image.js';
import { encodePng } from './png.js';
import {
  PIECE_BOX_HEIGHT,
  PIECE_BOX_WIDTH,
  SLIDER_HEIGHT,
  SLIDER_WIDTH,
  SLIDER_X_MIN,
  sliderImages,
} from './slider-image.js';

/** Decodes a PNG this encoder wrote (8-bit RGB/RGBA, Paeth rows): width, height, channels, pixels. */
function decodePng(png: Buffer) {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const channels = png[25] === 6 ? 4 : 3;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  expect(raw.length).toBe((stride + 1) * height);
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (stride + 1)]).toBe(4);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? (out[y * stride + x - channels] as number) : 0;
      const b = y > 0 ? (out[(y - 1) * stride + x] as number) : 0;
      const c = x >= channels && y > 0 ? (out[(y - 1) * stride + x - channels] as number) : 0;
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      const predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      out[y * stride + x] = ((raw[y * (stride + 1) + 1 + x] as number) + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels: out };
}

describe('the challenge images', () => {
  it('encodes PNGs that decode to the same pixels', () => {
    const pixels = new Uint8Array(7 * 5 * 4).map((_, i) => (i * 37) % 256);
    const png = decodePng(encodePng(7, 5, 4, pixels));
    expect(png).toMatchObject({ width: 7, height: 5, channels: 4 });
    expect(Buffer.from(png.pixels).equals(Buffer.from(pixels))).toBe(true);
  });

  it('draws codes of the alphabet, every character with strokes, and never the same picture twice', () => {
    expect(Object.keys(GLYPHS).sort()).toEqual([...CODE_ALPHABET].sort());
    for (let i = 0; i < 50; i++) expect(newCode()).toMatch(new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`));
    const first = codeImage('AC347');
    const image = decodePng(first);
    expect(image).toMatchObject({ width: CODE_WIDTH, height: CODE_HEIGHT, channels: 3 });
    // Ink: a good share of the pixels are dark (strokes, curves, specks).
    let dark = 0;
    for (let p = 0; p < image.pixels.length; p += 3) if ((image.pixels[p] as number) < 130) dark++;
    expect(dark / (CODE_WIDTH * CODE_HEIGHT)).toBeGreaterThan(0.05);
    expect(codeImage('AC347').equals(first)).toBe(false);
    expect(first.includes('AC347')).toBe(false);
  });

  it('cuts the piece out of the picture at the answer, the gap darkened, away from the left edge', () => {
    for (let i = 0; i < 5; i++) {
      const puzzle = sliderImages();
      expect(puzzle.x).toBeGreaterThanOrEqual(SLIDER_X_MIN);
      expect(puzzle.x + PIECE_BOX_WIDTH).toBeLessThanOrEqual(SLIDER_WIDTH);
      expect(puzzle.y + PIECE_BOX_HEIGHT).toBeLessThanOrEqual(SLIDER_HEIGHT);
      const background = decodePng(puzzle.background);
      const piece = decodePng(puzzle.piece);
      expect(background).toMatchObject({ width: SLIDER_WIDTH, height: SLIDER_HEIGHT, channels: 3 });
      expect(piece).toMatchObject({ width: PIECE_BOX_WIDTH, height: PIECE_BOX_HEIGHT, channels: 4 });
      // The piece's centre is opaque, its top-left corner (outside the knobs) transparent, and the
      // gap under the centre is darker than the piece there.
      const cx = Math.floor(PIECE_BOX_WIDTH / 2) - 4;
      const cy = Math.floor(PIECE_BOX_HEIGHT / 2) + 4;
      expect(piece.pixels[(cy * PIECE_BOX_WIDTH + cx) * 4 + 3]).toBe(255);
      expect(piece.pixels[3]).toBe(0);
      const sum = (px: Uint8Array, at: number) => (px[at] as number) + (px[at + 1] as number) + (px[at + 2] as number);
      const gap = sum(background.pixels, ((puzzle.y + cy) * SLIDER_WIDTH + puzzle.x + cx) * 3);
      expect(gap).toBeLessThan(sum(piece.pixels, (cy * PIECE_BOX_WIDTH + cx) * 4) * 0.6);
    }
  });
});
