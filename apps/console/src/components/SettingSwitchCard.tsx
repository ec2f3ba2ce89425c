import { Card, Space, Switch, Typography } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

/**
 * A card holding one on/off setting: the switch with its label, and a short explanation below.
 * `checked` is undefined while the setting loads (the switch then shows `fallback`, disabled).
 */
export function SettingSwitchCard({
  title,
  label,
  hint,
  checked,
  fallback,
  busy,
  canWrite,
  onChange,
  style,
}: {
  title: ReactNode;
  label: string;
  hint: ReactNode;
  checked: boolean | undefined;
  fallback: boolean;
  busy: boolean;
  canWrite: boolean;
  onChange: (next: boolean) => void;
  style?: CSSProperties;
}) {
  return (
    <Card title={title} style={{ maxWidth: 720, ...style }}>
      <Space direction="vertical">
        <Space>
          <Switch
            checked={checked ?? fallback}
            loading={busy}
            disabled={!canWrite || checked === undefined}
            aria-label={label}
            onChange={onChange}
          />
          <Typography.Text>{label}</Typography.Text>
        </Space>
        <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph>
      </Space>
    </Card>
  );
}
