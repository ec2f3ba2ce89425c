import { isLocale, LOCALES } from '@rampart/contract';
import { Dropdown, type MenuProps } from 'antd';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../i18n';

/**
 * The language menu around LanguageSwitch's button: antd's Dropdown and Menu, loaded only when the
 * visitor reaches for the button (they are a tenth of the login page otherwise). It mounts open,
 * since the click that loaded it asked for the menu.
 */
export function LanguageMenu({ children }: { children: ReactElement }) {
  const { t } = useTranslation();
  const [locale, setLocale] = useLocale();
  const [open, setOpen] = useState(true);
  const items: MenuProps['items'] = LOCALES.map((code) => ({ key: code, label: t(`languageNames.${code}`) }));
  const onClick: MenuProps['onClick'] = ({ key }) => {
    setOpen(false);
    if (isLocale(key)) setLocale(key);
  };
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{ items, onClick, selectable: true, selectedKeys: [locale] }}
    >
      {children}
    </Dropdown>
  );
}
