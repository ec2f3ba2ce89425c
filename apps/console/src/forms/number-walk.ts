import { CUSTOMER_NUMBER_FORMS } from './number-walk-customer';
import { OPERATOR_NUMBER_FORMS } from './number-walk-operator';
import type { NumberBox, NumberForm } from './number-walk-types';

export type { NumberBox, NumberForm } from './number-walk-types';

/** Every number box of the console, by form (the two tables: number-walk-operator.ts, number-walk-customer.ts). */
export const NUMBER_FORMS: readonly NumberForm[] = [...OPERATOR_NUMBER_FORMS, ...CUSTOMER_NUMBER_FORMS];

/** Number boxes the walk does not type into, by source file: how many, and why. */
export const NOT_WALKED: Readonly<Record<string, { boxes: number; why: string }>> = {
  'pages/user/site-setting/domains/UpstreamsList.tsx': {
    boxes: 1,
    why: "an upstream's status: a hidden field that carries the stored value back, never shown",
  },
};

/** The en_US text of a box's label, from the console's catalogue (undefined when it has none). */
export function walkLabel(texts: object, box: NumberBox): string | undefined {
  const [namespace = '', key = ''] = box.label.split(':');
  let text: unknown = (texts as Record<string, unknown>)[namespace];
  for (const part of key.split('.')) {
    text = text && typeof text === 'object' ? (text as Record<string, unknown>)[part] : undefined;
  }
  if (typeof text !== 'string') return undefined;
  const filled = text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    String(box.labelParams?.[name] ?? whole),
  );
  return filled + (box.labelSuffix ?? '');
}
