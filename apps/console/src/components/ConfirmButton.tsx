import { Button, Popconfirm } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ConfirmButtonProps {
  /** The question, naming what the action touches. */
  confirm: string;
  onConfirm: () => void;
  pending?: boolean;
  disabled?: boolean;
  children: ReactNode;
}

/** A row's small button for an action that is not a delete but still asks first (yes / no). */
export function ConfirmButton({ confirm, onConfirm, pending = false, disabled = false, children }: ConfirmButtonProps) {
  const { t } = useTranslation();
  return (
    <Popconfirm title={confirm} onConfirm={onConfirm} okText={t('yes')} cancelText={t('no')} disabled={disabled}>
      <Button size="small" loading={pending} disabled={disabled}>
        {children}
      </Button>
    </Popconfirm>
  );
}
