import { LockOutlined, LogoutOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import type { Tier } from '@rampart/contract';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAccount } from '../../app/account-context';
import { CONSOLE_PATHS, consolePath } from '../../app/console-paths';
import { toast, toastText } from '../../app/toast';
import { logout } from '../../session';

/** The header's account dropdown: the account pages and logout. */
export function AccountMenu({ tier }: { tier: Tier }) {
  const { t } = useTranslation('shell');
  const self = useAccount();
  const navigate = useNavigate();

  const items: MenuProps['items'] = [
    { key: CONSOLE_PATHS.userInformation, icon: <UserOutlined />, label: t('menu.userInformation') },
    { key: CONSOLE_PATHS.changePassword, icon: <LockOutlined />, label: t('menu.changePassword') },
    { key: CONSOLE_PATHS.twoFactor, icon: <SafetyOutlined />, label: t('menu.twoFactor') },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('logout'), danger: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key !== 'logout') {
      navigate(`/${tier}/${key}`);
      return;
    }
    // Spec part 1 §4: call logout, clear cookies and state, go to the login form, show the toast.
    void logout(tier).then(() => {
      navigate(consolePath(tier, 'login'), { replace: true });
      toast.success(toastText('logoutSuccess'));
    });
  };

  return (
    <Dropdown trigger={['click']} menu={{ items, onClick }}>
      <Button type="text" icon={<UserOutlined />} data-testid="account-menu" aria-label={t('accountMenu')}>
        {self.name || self.account}
      </Button>
    </Dropdown>
  );
}
