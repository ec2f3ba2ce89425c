import { Flex, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useTier } from '../../app/tier-context';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { useBranding } from '../../features/branding/use-branding';

/**
 * The branded card of the login pages: the console's logo, title and subtitle (or which console
 * this is), the form, and the copyright below; the background image when one is set. The card is
 * drawn with antd's Card tokens rather than antd's Card, which brings Tabs, Skeleton and Dropdown's
 * menu into the login page's first load.
 */
export function AuthCard({ heading, children }: { heading?: string; children: ReactNode }) {
  const tier = useTier();
  const { t } = useTranslation();
  const branding = useBranding(tier);
  const { token } = theme.useToken();
  const background = branding.backgroundImage
    ? `center / cover no-repeat url(${JSON.stringify(branding.backgroundImage)})`
    : token.colorBgLayout;
  return (
    <Flex vertical align="center" justify="center" gap="middle" style={{ minHeight: '100vh', padding: 16, background }}>
      <div style={{ position: 'absolute', top: 12, right: 16 }}>
        <LanguageSwitch />
      </div>
      <div
        style={{
          width: 'min(400px, 100%)',
          boxSizing: 'border-box',
          padding: token.paddingLG,
          background: token.colorBgContainer,
          border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
        }}
      >
        <Flex vertical align="center" gap={4} style={{ marginBottom: token.marginLG }}>
          {branding.logo && <img src={branding.logo} alt="" style={{ maxHeight: 56, maxWidth: '100%' }} />}
          <h1 style={{ margin: 0, fontSize: token.fontSizeHeading3, color: token.colorTextHeading }}>
            {branding.title}
          </h1>
          <span style={{ color: token.colorTextSecondary }}>{branding.subTitle || t(`tiers.${tier}`)}</span>
        </Flex>
        {heading && (
          <h2
            style={{ margin: `0 0 ${token.margin}px`, fontSize: token.fontSizeHeading5, color: token.colorTextHeading }}
          >
            {heading}
          </h2>
        )}
        {children}
      </div>
      <span style={{ color: token.colorTextSecondary }}>{branding.copyright}</span>
    </Flex>
  );
}
