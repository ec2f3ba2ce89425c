import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';

/** One entry per line in the text area; blank lines dropped. */
export const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** A list setting edited as lines (the outgoing URL list, the sign-in addresses): one text area and its save. */
export function LinesSettingForm({
  current,
  canWrite,
  label,
  hint,
  placeholder,
  saving,
  onSave,
}: {
  current: readonly string[];
  canWrite: boolean;
  label: string;
  hint: string;
  placeholder: string;
  saving: boolean;
  onSave: (lines: string[]) => void;
}) {
  const { t } = useTranslation('systemSettings');
  return (
    <Form
      layout="vertical"
      style={{ maxWidth: 640 }}
      disabled={!canWrite}
      initialValues={{ text: current.join('\n') }}
      onFinish={(values: { text?: string }) => onSave(linesOf(values.text ?? ''))}
    >
      <Form.Item name="text" label={label} extra={hint}>
        <Input.TextArea rows={8} placeholder={placeholder} spellCheck={false} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>
        {t('save')}
      </Button>
    </Form>
  );
}
