import { CloseCircleFilled } from '@ant-design/icons';
import { Button, Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * What a route shows when it fails to load or render, typically a page chunk that did not
 * arrive (a new release replaced it, or the network dropped); a reload fetches the current
 * build. Deliberately light (no antd Result or Typography): it is part of the first load.
 */
export function RouteError() {
  const { t } = useTranslation(['routeError', 'common']);
  const { token } = theme.useToken();
  return (
    <Flex vertical align="center" justify="center" gap="middle" style={{ minHeight: '100vh', padding: 24 }}>
      <CloseCircleFilled style={{ fontSize: 72, color: token.colorError }} />
      <h1 style={{ margin: 0, fontSize: token.fontSizeHeading3, color: token.colorText }}>{t('title')}</h1>
      <p style={{ margin: 0, color: token.colorTextSecondary }}>{t('subTitle')}</p>
      <Button type="primary" onClick={() => window.location.reload()}>
        {t('common:reload')}
      </Button>
    </Flex>
  );
}
