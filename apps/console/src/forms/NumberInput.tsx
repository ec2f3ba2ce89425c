import { InputNumber, type InputNumberProps } from 'antd';

/**
 * The console's number box. antd's InputNumber, given `min`/`max`/`precision`, rewrites what the
 * person typed when the box loses focus (70000 becomes 65535, 0 becomes 1, 1.5 becomes 2) and the
 * form then saves a value nobody entered. This box never rewrites: it has no bounds of its own, the
 * field's rules (the contract's schema, `valueRules` / `schemaRules`) refuse an out-of-range or
 * fractional value under the field in the reader's language, and nothing is sent.
 * Every number input of the console is this one (number-input.test.ts fails on a raw InputNumber).
 */
export type NumberInputProps = Omit<InputNumberProps<number>, 'min' | 'max' | 'precision'>;

export function NumberInput(props: NumberInputProps) {
  return <InputNumber<number> {...props} />;
}
