import { expect, type Locator, type Page, type Request } from '@playwright/test';
import { API_BASE } from '@rampart/contract';
import type { z } from 'zod';
import { fieldAt, numberBounds } from '../../apps/console/src/forms/number-bounds.js';
import { type NumberBox, type NumberForm, walkLabel } from '../../apps/console/src/forms/number-walk.js';
import { issueKey, validationText } from '../../apps/console/src/forms/validation-text.js';
import { enUS } from '../../apps/console/src/i18n/resources/en-us.js';

/**
 * The browser walk of one form of number-walk.ts: values just outside each box's field bounds
 * (the contract's schema, through the form's unit conversion), typed, submitted, and checked.
 */

/** One value to type into a box, and the refusal its field's rule gives it (en_US). */
export interface BadValue {
  typed: number;
  refusal: string;
}

/** The field schema a box fills. */
function fieldOf(form: NumberForm, box: NumberBox): z.ZodType {
  const part = form.part === 'query' ? form.route.request.query : form.route.request.body;
  const field = part ? fieldAt(part, box.field) : undefined;
  if (!field) throw new Error(`${form.route.method} ${form.route.path} has no field ${box.field}`);
  return field;
}

/**
 * Above the max, below the min, and a fraction where the field is a whole number, each in the
 * box's unit: a bound of the field divided by the form's conversion of one box unit (GB → bytes).
 * A value the field would take after the conversion (1.5 GB is a whole number of bytes) is left out.
 */
export function badValues(form: NumberForm, box: NumberBox): BadValue[] {
  const field = fieldOf(form, box);
  const bounds = numberBounds(field);
  if (!bounds) throw new Error(`${box.field} is not a number field`);
  const toField = box.toField ?? ((value: number) => value);
  const unit = toField(1);
  const candidates: number[] = [];
  if (bounds.max !== undefined) candidates.push(Math.floor(bounds.max / unit) + 1);
  if (bounds.min !== undefined) candidates.push(Math.ceil(bounds.min / unit) - 1);
  if (bounds.integer) candidates.push(Math.ceil((bounds.min ?? 0) / unit) + 0.5);
  return candidates.flatMap((typed) => {
    const parsed = field.safeParse(toField(typed));
    const issue = parsed.success ? undefined : parsed.error.issues[0];
    if (!issue) return [];
    const { key, params } = issueKey(issue, typed);
    return [{ typed, refusal: validationText(key, 'en_US', params) }];
  });
}

export function labelOf(box: NumberBox): string {
  const label = walkLabel(enUS, box);
  if (!label) throw new Error(`no en_US text ${box.label}`);
  return label;
}

/** Whether a request the browser sent is a call of the form's route (a query route: naming the field). */
function callOf(form: NumberForm): (request: Request) => boolean {
  const pattern = new RegExp(`^${API_BASE}${form.route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
  return (request) => {
    const url = new URL(request.url());
    if (request.method() !== form.route.method || !pattern.test(url.pathname)) return false;
    return form.part !== 'query' || form.boxes.some((box) => url.searchParams.has(box.field));
  };
}

/** The form item around a box, where its refusal is shown. */
const formItem = (box: Locator) =>
  box.locator('xpath=ancestor::*[contains(concat(" ", normalize-space(@class), " "), " ant-form-item ")][1]');

/**
 * Types each bad value into each box of `form` inside `scope`, submits with `submit`, and checks
 * that the box's item names the refusal, the box keeps what was typed, and no call of the form's
 * route left the browser while it was walked. Returns how many values were typed.
 */
export async function walkForm(
  page: Page,
  form: NumberForm,
  scope: Locator,
  submit: () => Promise<void>,
): Promise<number> {
  const sent: string[] = [];
  const isCall = callOf(form);
  const watch = (request: Request) => {
    if (isCall(request)) sent.push(`${request.method()} ${request.url()}`);
  };
  page.on('request', watch);
  let typed = 0;
  try {
    for (const box of form.boxes) {
      const input = scope.getByLabel(labelOf(box), { exact: true });
      for (const bad of badValues(form, box)) {
        await input.fill(String(bad.typed));
        await submit();
        await expect(formItem(input), `${form.form}: ${box.field} = ${bad.typed}`).toContainText(bad.refusal);
        await expect(input).toHaveValue(String(bad.typed));
        typed += 1;
      }
    }
  } finally {
    page.off('request', watch);
  }
  expect(sent, `${form.form}: calls of ${form.route.method} ${form.route.path}`).toEqual([]);
  return typed;
}
