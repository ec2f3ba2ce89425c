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

/** Whether `value` (a request's JSON body) holds the dotted `field` (a list on the way is stepped into). */
function holds(value: unknown, field: string): boolean {
  const [head = '', ...rest] = field.split('.');
  if (Array.isArray(value)) return value.some((item) => holds(item, field));
  if (value === null || typeof value !== 'object' || !(head in value)) return false;
  const inner = (value as Record<string, unknown>)[head];
  return rest.length === 0 ? inner !== undefined : holds(inner, rest.join('.'));
}

/**
 * Whether a request the browser sent is a call of the form's route. For a search (`search`: the list
 * is fetched with or without its filters), only a call carrying one of the boxes' fields counts: the
 * boxes are empty before the walk, so such a call sent a typed value (as typed, or changed).
 */
function callOf(form: NumberForm, search: boolean): (request: Request) => boolean {
  const pattern = new RegExp(`^${API_BASE}${form.route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
  return (request) => {
    const url = new URL(request.url());
    if (request.method() !== form.route.method || !pattern.test(url.pathname)) return false;
    if (!search) return true;
    const body: unknown = form.part === 'query' ? undefined : request.postDataJSON();
    return form.boxes.some((box) => (form.part === 'query' ? url.searchParams.has(box.field) : holds(body, box.field)));
  };
}

/** Whether an element's class list has `name`. */
const hasClass = (name: string) => `contains(concat(" ", normalize-space(@class), " "), " ${name} ")`;

/** The form item around a box, where its refusal is shown (a search row's box: its own column, FilterNumber). */
const formItem = (box: Locator) =>
  box.locator(`xpath=ancestor::*[${hasClass('ant-form-item')} or ${hasClass('ant-flex-vertical')}][1]`);

/**
 * Types each bad value into each box of `form` inside `scope`, submits with `submit`, and checks
 * that the box's item names the refusal, the box keeps what was typed, and no call of the form's
 * route left the browser while it was walked (`search`: none carrying a box's field). Returns how
 * many values were typed.
 */
export async function walkForm(
  page: Page,
  form: NumberForm,
  scope: Locator,
  submit: () => Promise<void>,
  search = false,
): Promise<number> {
  const sent: string[] = [];
  const isCall = callOf(form, search);
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
