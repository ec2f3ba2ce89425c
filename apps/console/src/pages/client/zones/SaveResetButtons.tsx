import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/** Save (submits the form) and Reset to defaults, for the sections of a zone's nginx settings. */
export function SaveResetButtons({
  saving,
  resetting,
  onReset,
}: {
  saving: boolean;
  resetting: boolean;
  onReset: () => void;
}) {
  const { t } = useTranslation(['zoneSettings']);
  return (
    <Space>
      <Button type="primary" htmlType="submit" loading={saving}>
        {t('nginx.save')}
      </Button>
      <Button onClick={onReset} loading={resetting}>
        {t('nginx.reset')}
      </Button>
    </Space>
  );
}
