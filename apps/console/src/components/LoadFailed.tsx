import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';

/** A page's data did not load: the page's own text (`title`) and a retry button. */
export function LoadFailed({ title, onRetry }: { title: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return <Alert type="error" title={title} action={<Button onClick={onRetry}>{t('actions.retry')}</Button>} />;
}
