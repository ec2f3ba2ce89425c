import { CopyOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../app/toast';

/** Copies `text` to the clipboard and says so; says it could not when the browser refuses. */
export function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(t('actions.copied'));
    } catch {
      toast.error(t('actions.copyFailed'));
    }
  };
  return (
    <Button icon={<CopyOutlined />} onClick={() => void copy()}>
      {t('actions.copy')}
    </Button>
  );
}
