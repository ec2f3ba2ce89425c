import { DeleteOutlined } from '@ant-design/icons';
import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';

interface DeleteButtonProps {
  /** The question, naming what goes. */
  confirm: string;
  onConfirm: () => void;
  pending?: boolean;
  disabled?: boolean;
  /** The button's text; 'Delete' when absent. */
  label?: string;
}

/** A delete button that asks first. */
export function DeleteButton({ confirm, onConfirm, pending = false, disabled = false, label }: DeleteButtonProps) {
  const { t } = useTranslation();
  return (
    <Popconfirm
      title={confirm}
      okText={t('actions.delete')}
      cancelText={t('cancel')}
      okButtonProps={{ danger: true, loading: pending }}
      onConfirm={onConfirm}
      disabled={disabled}
    >
      <Button danger size="small" icon={<DeleteOutlined />} loading={pending} disabled={disabled}>
        {label ?? t('actions.delete')}
      </Button>
    </Popconfirm>
  );
}
