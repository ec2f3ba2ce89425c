import type { AnyRoute } from '@rampart/contract';

/**
 * Every number box of the console, by form: the route its form calls and the body field each box
 * fills. The browser walk (e2e/tests/number-fields.spec.ts) opens each form, types a value just
 * outside the field's bounds (read from the contract's schema, number-bounds.ts) into each box,
 * submits, and checks that the box shows the refusal, keeps what was typed, and that no request
 * of the route left the browser. number-walk.test.ts fails when a source file with a number box is
 * not here (a new box joins the walk) or a box names a field its route does not have.
 */
export interface NumberBox {
  /** The box's label (its accessible name): an en_US text key `namespace:path`, with its parameters. */
  label: string;
  labelParams?: Record<string, string | number>;
  /** What the form puts after the catalogue's text (a list's row number: ` 1`). */
  labelSuffix?: string;
  /** The route body's field the box fills: `a.b` (a list on the way is stepped into). */
  field: string;
  /**
   * Where the box holds another unit than the field: the form's own conversion of the box's value
   * into the field's (`gbToBytes`). The walk derives the box's bounds through it.
   */
  toField?: (box: number) => number;
  unit?: string;
}

export interface NumberForm {
  /** The form's name in the walk. */
  form: string;
  /** The console source (under apps/console/src) holding the form's number boxes. */
  source: string;
  route: AnyRoute;
  /** Where the route takes the boxes' fields: its body (default) or its query (a list's filters). */
  part?: 'body' | 'query';
  boxes: NumberBox[];
}
