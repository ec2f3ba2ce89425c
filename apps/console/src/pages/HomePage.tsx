import { Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { API_DOCS_URL } from '../app/api-doc-route';
import { LanguageSwitch } from '../components/LanguageSwitch';

/**
 * `/`: what this installation is, where its API is documented, and the language choice. Plain
 * elements styled with antd's tokens rather than Typography, whose editable/copyable machinery
 * (Input, Form, Tooltip) would triple this chunk.
 */
export function HomePage() {
  const { t } = useTranslation(['home', 'common']);
  const { token } = theme.useToken();
  return (
    <Flex vertical align="center" justify="center" gap="small" style={{ minHeight: '100vh', padding: token.padding }}>
      <h1 style={{ margin: 0, fontSize: token.fontSizeHeading1, color: token.colorTextHeading }}>
        {t('common:productName')}
      </h1>
      <p style={{ margin: 0, color: token.colorTextSecondary }}>{t('description')}</p>
      <a href={API_DOCS_URL} style={{ color: token.colorLink }}>
        {t('apiDocs')}
      </a>
      <LanguageSwitch />
    </Flex>
  );
}
