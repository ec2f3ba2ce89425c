import { encodePng } from './png.js';
import { Canvas, Random, type Rgb, secureInt } from './raster.js';

/**
 * The slider challenge's images (blockType 5): a background of soft random shapes with a puzzle
 * piece's gap cut into it, and the piece itself (RGBA, transparent around its shape). The piece is a
 * PIECE_SIZE square with a round knob on its top and right sides; its box starts KNOB px above the
 * square. The answer is the box's left edge in the background (x); the page is given its top (y)
 * only. x never starts within SLIDER_X_MIN px of the left edge, so an untouched slider never passes.
 */

export const SLIDER_WIDTH = 300;
export const SLIDER_HEIGHT = 150;
export const PIECE_SIZE = 42;
export const KNOB = 8;
/** The piece's box: the square plus a knob beyond its top and right sides. */
export const PIECE_BOX_WIDTH = PIECE_SIZE + KNOB;
export const PIECE_BOX_HEIGHT = PIECE_SIZE + KNOB;
export const SLIDER_X_MIN = 70;

export interface SliderImages {
  background: Buffer;
  piece: Buffer;
  /** The answer: the piece box's left edge in the background. */
  x: number;
  /** The piece box's top in the background (given to the page). */
  y: number;
}

/** How much of pixel (px, py) of the piece box lies inside the piece (0–1, one pixel of soft edge). */
function inside(px: number, py: number): number {
  const x = px + 0.5;
  const y = py + 0.5 - KNOB;
  // The square: [0, PIECE_SIZE] × [0, PIECE_SIZE] in (x, y); the knobs' centres on its top and right sides.
  const dx = Math.max(-x, x - PIECE_SIZE, 0);
  const dy = Math.max(-y, y - PIECE_SIZE, 0);
  let distance = Math.hypot(dx, dy);
  if (dx === 0 && dy === 0) distance = -Math.min(x, PIECE_SIZE - x, y, PIECE_SIZE - y);
  const knobRadius = KNOB;
  const top = Math.hypot(x - PIECE_SIZE / 2, y) - knobRadius;
  const right = Math.hypot(x - PIECE_SIZE, y - PIECE_SIZE / 2) - knobRadius;
  const d = Math.min(distance, top, right);
  return Math.max(0, Math.min(1, 0.5 - d));
}

function softColor(random: Random): Rgb {
  return [random.int(40, 230), random.int(40, 230), random.int(40, 230)];
}

/** A new puzzle: the answer from the CSPRNG, the picture from `random`. */
export function sliderImages(random = new Random()): SliderImages {
  const canvas = new Canvas(SLIDER_WIDTH, SLIDER_HEIGHT);
  canvas.gradient(softColor(random), softColor(random));
  for (let i = 0; i < 16; i++) {
    if (random.next() < 0.6) {
      canvas.circle(
        random.range(0, SLIDER_WIDTH),
        random.range(0, SLIDER_HEIGHT),
        random.range(10, 45),
        softColor(random),
        random.range(0.5, 0.9),
      );
    } else {
      const x = random.range(0, SLIDER_WIDTH);
      const y = random.range(0, SLIDER_HEIGHT);
      const angle = random.range(0, Math.PI);
      const length = random.range(30, 120);
      canvas.segment(
        x,
        y,
        x + Math.cos(angle) * length,
        y + Math.sin(angle) * length,
        random.range(6, 24),
        softColor(random),
        random.range(0.5, 0.9),
      );
    }
  }
  const x = secureInt(SLIDER_X_MIN, SLIDER_WIDTH - PIECE_BOX_WIDTH - 4);
  const y = secureInt(4, SLIDER_HEIGHT - PIECE_BOX_HEIGHT - 4);

  const piece = new Canvas(PIECE_BOX_WIDTH, PIECE_BOX_HEIGHT, true);
  const alpha = piece.alpha as Uint8ClampedArray;
  for (let py = 0; py < PIECE_BOX_HEIGHT; py++) {
    for (let px = 0; px < PIECE_BOX_WIDTH; px++) {
      const cover = inside(px, py);
      if (cover <= 0) continue;
      const from = ((y + py) * SLIDER_WIDTH + x + px) * 3;
      const to = (py * PIECE_BOX_WIDTH + px) * 3;
      for (let c = 0; c < 3; c++) piece.rgb[to + c] = canvas.rgb[from + c] as number;
      alpha[py * PIECE_BOX_WIDTH + px] = 255 * cover;
    }
  }
  // The piece's rim (light), then the gap: darkened, with the same rim.
  for (let py = 0; py < PIECE_BOX_HEIGHT; py++) {
    for (let px = 0; px < PIECE_BOX_WIDTH; px++) {
      const cover = inside(px, py);
      if (cover <= 0) continue;
      const edge =
        cover < 1 ||
        inside(px - 2, py) === 0 ||
        inside(px + 2, py) === 0 ||
        inside(px, py - 2) === 0 ||
        inside(px, py + 2) === 0;
      if (edge) piece.blend(px, py, [255, 255, 255], 0.7);
      const i = ((y + py) * SLIDER_WIDTH + x + px) * 3;
      for (let c = 0; c < 3; c++) canvas.rgb[i + c] = (canvas.rgb[i + c] as number) * (1 - 0.55 * cover);
      if (edge) canvas.blend(x + px, y + py, [255, 255, 255], 0.5 * cover);
    }
  }
  return {
    background: encodePng(SLIDER_WIDTH, SLIDER_HEIGHT, 3, canvas.pixels()),
    piece: encodePng(PIECE_BOX_WIDTH, PIECE_BOX_HEIGHT, 4, piece.pixels()),
    x,
    y,
  };
}
