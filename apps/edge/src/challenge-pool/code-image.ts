import { encodePng } from './png.js';
import { Canvas, Random, type Rgb, secureInt } from './raster.js';

/**
 * The code challenge's image (blockType 2): CODE_LENGTH characters drawn as warped, rotated strokes
 * over a noisy background and crossed by interference curves. No font file and no text in the
 * image's bytes: every glyph is a set of strokes in a 10 × 14 box, drawn by the rasteriser. The
 * alphabet leaves out characters that read alike (0/O/D/Q, 1/I, 2/Z, 5/S, 8/B, G).
 */

export const CODE_ALPHABET = 'ACEFHJKLMNPRTUVWXY34679';
export const CODE_LENGTH = 5;
export const CODE_WIDTH = 200;
export const CODE_HEIGHT = 70;

type Stroke = readonly (readonly [number, number])[];
const P = (...xy: number[]): Stroke => {
  const out: [number, number][] = [];
  for (let i = 0; i < xy.length; i += 2) out.push([xy[i] as number, xy[i + 1] as number]);
  return out;
};
const P_BOWL = P(0, 14, 0, 0, 7, 0, 10, 2, 10, 5, 7, 7, 0, 7);

/** The strokes of each character of CODE_ALPHABET, in a box 10 wide and 14 high (y down). */
export const GLYPHS: Readonly<Record<string, readonly Stroke[]>> = {
  A: [P(0, 14, 5, 0, 10, 14), P(2, 9, 8, 9)],
  C: [P(10, 2, 8, 0, 3, 0, 0, 3, 0, 11, 3, 14, 8, 14, 10, 12)],
  E: [P(10, 0, 0, 0, 0, 14, 10, 14), P(0, 7, 7, 7)],
  F: [P(10, 0, 0, 0, 0, 14), P(0, 7, 7, 7)],
  H: [P(0, 0, 0, 14), P(10, 0, 10, 14), P(0, 7, 10, 7)],
  J: [P(3, 0, 10, 0), P(8, 0, 8, 11, 6, 14, 2, 14, 0, 11)],
  K: [P(0, 0, 0, 14), P(10, 0, 0, 9), P(3, 6, 10, 14)],
  L: [P(0, 0, 0, 14, 10, 14)],
  M: [P(0, 14, 0, 0, 5, 8, 10, 0, 10, 14)],
  N: [P(0, 14, 0, 0, 10, 14, 10, 0)],
  P: [P_BOWL],
  R: [P_BOWL, P(5, 7, 10, 14)],
  T: [P(0, 0, 10, 0), P(5, 0, 5, 14)],
  U: [P(0, 0, 0, 11, 3, 14, 7, 14, 10, 11, 10, 0)],
  V: [P(0, 0, 5, 14, 10, 0)],
  W: [P(0, 0, 2, 14, 5, 5, 8, 14, 10, 0)],
  X: [P(0, 0, 10, 14), P(10, 0, 0, 14)],
  Y: [P(0, 0, 5, 7, 10, 0), P(5, 7, 5, 14)],
  '3': [P(0, 1, 3, 0, 8, 0, 10, 2, 10, 5, 7, 7, 3, 7), P(7, 7, 10, 9, 10, 12, 8, 14, 3, 14, 0, 13)],
  '4': [P(8, 14, 8, 0, 0, 10, 10, 10)],
  '6': [P(9, 1, 6, 0, 3, 0, 0, 4, 0, 11, 3, 14, 7, 14, 10, 11, 10, 9, 7, 7, 3, 7, 0, 9)],
  '7': [P(0, 0, 10, 0, 4, 14)],
  '9': [P(1, 13, 4, 14, 7, 14, 10, 10, 10, 3, 7, 0, 3, 0, 0, 3, 0, 5, 3, 7, 7, 7, 10, 5)],
};

/** A new answer: CODE_LENGTH characters of CODE_ALPHABET from the CSPRNG. */
export function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[secureInt(0, CODE_ALPHABET.length - 1)];
  return code;
}

/** Splits a stroke into pieces of at most `step` units so that a warp bends it. */
function subdivide(stroke: Stroke, step: number): [number, number][] {
  const out: [number, number][] = [[...(stroke[0] as readonly [number, number])]];
  for (let i = 1; i < stroke.length; i++) {
    const [x0, y0] = stroke[i - 1] as readonly [number, number];
    const [x1, y1] = stroke[i] as readonly [number, number];
    const n = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / step));
    for (let k = 1; k <= n; k++) out.push([x0 + ((x1 - x0) * k) / n, y0 + ((y1 - y0) * k) / n]);
  }
  return out;
}

function darkColor(random: Random): Rgb {
  return [random.int(10, 110), random.int(10, 110), random.int(10, 110)];
}

/** Draws `code` (characters of CODE_ALPHABET) and answers the PNG. */
export function codeImage(code: string, random = new Random()): Buffer {
  const canvas = new Canvas(CODE_WIDTH, CODE_HEIGHT);
  canvas.gradient(
    [random.int(215, 250), random.int(215, 250), random.int(215, 250)],
    [random.int(200, 245), random.int(200, 245), random.int(200, 245)],
  );
  // Background specks.
  for (let i = 0; i < 120; i++) {
    canvas.circle(
      random.range(0, CODE_WIDTH),
      random.range(0, CODE_HEIGHT),
      random.range(0.6, 1.6),
      darkColor(random),
      0.6,
    );
  }
  // One warp for the whole line of text: y += a·sin(x/λ + φ).
  const amplitude = random.range(2, 4.5);
  const wavelength = random.range(18, 30);
  const phase = random.range(0, Math.PI * 2);
  const cell = (CODE_WIDTH - 20) / code.length;
  for (let c = 0; c < code.length; c++) {
    const glyph = GLYPHS[code[c] as string];
    if (!glyph) throw new Error(`no glyph for ${code[c]}`);
    const scale = random.range(2.5, 3.1);
    const angle = random.range(-0.38, 0.38);
    const shear = random.range(-0.2, 0.2);
    const cx = 10 + cell * c + cell / 2 + random.range(-3, 3);
    const cy = CODE_HEIGHT / 2 + random.range(-5, 5);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const width = random.range(2.6, 4);
    const color = darkColor(random);
    for (const stroke of glyph) {
      const points = subdivide(stroke, 1.5).map(([gx, gy]): [number, number] => {
        const lx = (gx - 5 + shear * (gy - 7)) * scale;
        const ly = (gy - 7) * scale;
        const x = cx + lx * cos - ly * sin;
        const y = cy + lx * sin + ly * cos;
        return [x, y + amplitude * Math.sin(x / wavelength + phase)];
      });
      canvas.polyline(points, width, color);
    }
  }
  // Interference curves across the text, as dark and as thick as strokes can be.
  for (let i = 0; i < 3; i++) {
    const y0 = random.range(10, CODE_HEIGHT - 10);
    const a = random.range(6, 16);
    const l = random.range(25, 60);
    const ph = random.range(0, Math.PI * 2);
    const slope = random.range(-0.15, 0.15);
    const points: [number, number][] = [];
    for (let x = 0; x <= CODE_WIDTH; x += 3) points.push([x, y0 + slope * x + a * Math.sin(x / l + ph)]);
    canvas.polyline(points, random.range(1.2, 2.4), darkColor(random), 0.85);
  }
  return encodePng(CODE_WIDTH, CODE_HEIGHT, 3, canvas.pixels());
}
