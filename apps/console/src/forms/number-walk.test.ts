import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PORT_MAX, PORT_MIN } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { enUS } from '../i18n/resources/en-us';
import { fieldAt, numberBounds } from './number-bounds';
import { NOT_WALKED, NUMBER_FORMS, walkLabel } from './number-walk';

/**
 * The browser walk of the number boxes (e2e/tests/number-fields.spec.ts) covers the forms of
 * number-walk.ts; this keeps that table whole: every source file with a number box is in it with
 * at least as many boxes as it draws, and every box names a bounded number field of its route and
 * a label the console has.
 */
const SRC = path.resolve(__dirname, '..');
const SHARED = new Set([path.join('forms', 'NumberInput.tsx'), path.join('forms', 'FilterNumber.tsx')]);
const BOX = /<(NumberInput|FilterNumber)\b/g;

function sources(dir: string): string[] {
  return readdirSync(path.join(SRC, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** Each source file drawing number boxes, with how many it draws (a box drawn in a loop counts once). */
function drawnBoxes(): Map<string, number> {
  const drawn = new Map<string, number>();
  for (const file of sources('.')) {
    if (SHARED.has(file)) continue;
    const count = readFileSync(path.join(SRC, file), 'utf8').match(BOX)?.length ?? 0;
    if (count > 0) drawn.set(file.split(path.sep).join('/'), count);
  }
  return drawn;
}

describe('the walk of the number boxes (number-walk.ts)', () => {
  const drawn = drawnBoxes();

  it('finds the number boxes of the console', () => {
    expect(drawn.size).toBeGreaterThan(30);
  });

  it('has every source file that draws a number box, and no other', () => {
    const listed = new Set([...NUMBER_FORMS.map((form) => form.source), ...Object.keys(NOT_WALKED)]);
    expect([...drawn.keys()].filter((file) => !listed.has(file)).sort()).toEqual([]);
    expect([...listed].filter((file) => !drawn.has(file)).sort()).toEqual([]);
  });

  it('walks at least as many boxes of each file as it draws', () => {
    const short = [...drawn].flatMap(([file, count]) => {
      const walked = NUMBER_FORMS.filter((form) => form.source === file).reduce((n, f) => n + f.boxes.length, 0);
      const skipped = NOT_WALKED[file]?.boxes ?? 0;
      return walked + skipped >= count ? [] : [`${file}: draws ${count}, walks ${walked} (+${skipped} not walked)`];
    });
    expect(short).toEqual([]);
  });

  it("names for each box a bounded number field of its route's body", () => {
    const wrong = NUMBER_FORMS.flatMap((form) =>
      form.boxes.flatMap((box) => {
        const body = form.part === 'query' ? form.route.request.query : form.route.request.body;
        const field = body ? fieldAt(body, box.field) : undefined;
        const bounds = field ? numberBounds(field) : undefined;
        if (!bounds) return [`${form.form}: ${form.route.method} ${form.route.path} has no number field ${box.field}`];
        return bounds.min === undefined && bounds.max === undefined ? [`${form.form}: ${box.field} is unbounded`] : [];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('names for each box a label the console shows in en_US', () => {
    const missing = NUMBER_FORMS.flatMap((form) =>
      form.boxes.flatMap((box) => (walkLabel(enUS, box) ? [] : [`${form.form}: ${box.label}`])),
    );
    expect(missing).toEqual([]);
  });

  it('reads the bounds from the schema, through the form wrappers', () => {
    const port = NUMBER_FORMS.find((form) => form.form === 'site port');
    const body = port?.route.request.body;
    expect(body && numberBounds(fieldAt(body, 'ports.port') ?? body)).toEqual({
      min: PORT_MIN,
      max: PORT_MAX,
      integer: true,
    });
    expect(numberBounds(z.number().int().min(3).max(9).optional().default(4))).toEqual({
      min: 3,
      max: 9,
      integer: true,
    });
    expect(numberBounds(z.preprocess((v) => v, z.number().max(2.5)))).toEqual({ max: 2.5, integer: false });
    expect(numberBounds(z.string())).toBeUndefined();
  });
});
