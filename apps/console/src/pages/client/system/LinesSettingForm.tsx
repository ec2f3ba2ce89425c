import { Button, Form, Input } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { listSchemaRules } from '../../../forms/line-rules';
import { i18n } from '../../../i18n/i18n';

/** One entry per line in the text area; blank lines dropped. */
export const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/**
 * A list setting edited as lines (the outgoing URL list, the sign-in addresses): one text area and
 * its save. `list` is the contract's schema of the whole list: every bad or repeated line is named
 * under the box, with its number, before anything is sent.
 */
export function LinesSettingForm({
  list,
  current,
  canWrite,
  label,
  hint,
  placeholder,
  saving,
  onSave,
}: {
  list: z.ZodType;
  current: readonly string[];
  canWrite: boolean;
  label: string;
  hint: string;
  placeholder: string;
  saving: boolean;
  onSave: (lines: string[]) => void;
}) {
  const { t } = useTranslation('systemSettings');
  const rules = useMemo(
    () => listSchemaRules(list, (line, value, message) => i18n.t('firewall:form.lineError', { line, value, message })),
    [list],
  );
  return (
    <Form
      layout="vertical"
      style={{ maxWidth: 640 }}
      disabled={!canWrite}
      initialValues={{ text: current.join('\n') }}
      onFinish={(values: { text?: string }) => onSave(linesOf(values.text ?? ''))}
    >
      <Form.Item name="text" label={label} extra={hint} rules={rules}>
        <Input.TextArea rows={8} placeholder={placeholder} spellCheck={false} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>
        {t('save')}
      </Button>
    </Form>
  );
}
