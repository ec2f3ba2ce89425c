import { Flex, Layout, theme } from 'antd';
import { useState } from 'react';
import { Outlet } from 'react-router';
import { AccountContext } from '../../app/account-context';
import { useTier } from '../../app/tier-context';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { PageLoading } from '../../components/PageLoading';
import { useBranding } from '../../features/branding/use-branding';
import { useSelf } from '../../session';
import { AccountMenu } from './AccountMenu';
import { ErrorDialogBridge } from './ErrorDialogBridge';
import { SideMenu } from './SideMenu';

/**
 * The shell of a console's signed-in pages: branded sidebar with the console's menu, a header
 * with the language switch and the account menu, the page, and the copyright in the footer. It
 * renders under the session route, whose loader has restored the account.
 */
export function ConsoleShell() {
  const tier = useTier();
  const self = useSelf(tier);
  const branding = useBranding(tier);
  const { token } = theme.useToken();
  const [collapsed, setCollapsed] = useState(false);

  // Signed out a moment ago (logout, session ended): the login form is on its way.
  if (!self) return <PageLoading />;

  const sidebarImage = collapsed ? branding.sidebarSimpleLogo || branding.sidebarLogo : branding.sidebarLogo;
  return (
    <AccountContext value={self}>
      <ErrorDialogBridge />
      <Layout style={{ minHeight: '100vh' }}>
        <Layout.Sider
          theme="light"
          width={232}
          collapsible
          collapsed={collapsed}
          onCollapse={setCollapsed}
          breakpoint="lg"
          style={{ borderInlineEnd: `1px solid ${token.colorSplit}` }}
        >
          <Flex align="center" justify="center" style={{ height: 64, padding: '0 12px', overflow: 'hidden' }}>
            {sidebarImage ? (
              <img src={sidebarImage} alt={branding.title} style={{ maxHeight: 40, maxWidth: '100%' }} />
            ) : (
              <strong style={{ fontSize: token.fontSizeLG, color: token.colorTextHeading, whiteSpace: 'nowrap' }}>
                {collapsed ? branding.title.slice(0, 1) : branding.title}
              </strong>
            )}
          </Flex>
          <SideMenu tier={tier} />
        </Layout.Sider>
        <Layout>
          <Layout.Header
            style={{
              display: 'flex',
              justifyContent: 'flex-end',
              alignItems: 'center',
              gap: token.marginXS,
              padding: `0 ${token.paddingLG}px`,
              background: token.colorBgContainer,
            }}
          >
            <LanguageSwitch />
            <AccountMenu tier={tier} />
          </Layout.Header>
          <Layout.Content style={{ margin: token.marginLG }}>
            <Outlet />
          </Layout.Content>
          <Layout.Footer style={{ textAlign: 'center', color: token.colorTextSecondary }}>
            {branding.copyright}
          </Layout.Footer>
        </Layout>
      </Layout>
    </AccountContext>
  );
}
