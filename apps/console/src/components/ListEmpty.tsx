import { Button, Empty, Flex } from 'antd';
import { useTranslation } from 'react-i18next';

interface ListEmptyProps {
  /** The list's own empty text ("No zones yet"). */
  text: string;
  /** The list failed to load: say so and offer a retry instead. */
  failed?: boolean;
  onRetry?: () => void;
}

/** What a table shows without rows: its empty text, or a load failure with a retry button. */
export function ListEmpty({ text, failed = false, onRetry }: ListEmptyProps) {
  const { t } = useTranslation();
  if (!failed) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} />;
  return (
    <Flex vertical align="center" gap="small">
      <span>{t('list.loadFailed')}</span>
      {onRetry && <Button onClick={onRetry}>{t('actions.retry')}</Button>}
    </Flex>
  );
}
