import { render } from '@testing-library/react';
import { Form, Input } from 'antd';
import { describe, expect, it } from 'vitest';
import { useFieldValue } from './use-field-value';

/** A field-dependent component: records what `read` answered on each of its renders. */
function Probe({ read, seen }: { read: () => unknown; seen: unknown[] }) {
  seen.push(read());
  return null;
}

function renders(read: () => unknown) {
  const seen: unknown[] = [];
  render(
    <Form initialValues={{ scope: 'directory' }}>
      <Form.Item name="scope">
        <Input />
      </Form.Item>
      <Probe read={read} seen={seen} />
    </Form>,
  );
  return seen;
}

describe('useFieldValue', () => {
  it('reads the value the form opened with from its first render on', () => {
    expect(renders(() => useFieldValue<string>('scope'))).not.toContain(undefined);
    expect(renders(() => useFieldValue<string>('scope'))[0]).toBe('directory');
  });

  it('is needed: Form.useWatch alone reads nothing in the first render', () => {
    // What a submit made in that render lost (the fields shown for the value were not there).
    expect(renders(() => Form.useWatch('scope', Form.useFormInstance()))[0]).toBeUndefined();
  });
});
