import { Form, type FormItemProps } from 'antd';

type NamePath = NonNullable<FormItemProps['name']>;

/**
 * A field's value, for a component inside a `<Form>` that shows or hides other fields by it.
 *
 * `Form.useWatch` reads `undefined` until its effect has run, one render after the form opens;
 * fields hidden in that render are missing from a submit made in it (a token auth's path was sent
 * empty so). Until the watch has a value this reads the form's store, which already holds the
 * values the form opened with. A component that owns the form (outside the `<Form>`, whose store
 * is not connected yet) falls back to its opening values instead: `Form.useWatch(name, form) ?? opening`.
 * Its watch registers only once it renders with the form connected, which may be later than one
 * render: a component inside the form, reading this, is the sounder place for a field that
 * depends on another.
 */
export function useFieldValue<T>(name: NamePath): T | undefined {
  const form = Form.useFormInstance();
  const watched = Form.useWatch(name, form) as T | undefined;
  return watched !== undefined ? watched : (form.getFieldValue(name) as T | undefined);
}
