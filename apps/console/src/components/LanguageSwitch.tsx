import { GlobalOutlined } from '@ant-design/icons';
import { isLocale, LOCALES } from '@rampart/contract';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../i18n';

/** Picks the interface language; the choice is kept in localStorage. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const [locale, setLocale] = useLocale();
  const items: MenuProps['items'] = LOCALES.map((code) => ({ key: code, label: t(`languageNames.${code}`) }));
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (isLocale(key)) setLocale(key);
  };
  return (
    <Dropdown trigger={['click']} menu={{ items, onClick, selectable: true, selectedKeys: [locale] }}>
      <Button type="text" icon={<GlobalOutlined />} aria-label={t('language')}>
        {t(`languageNames.${locale}`)}
      </Button>
    </Dropdown>
  );
}
