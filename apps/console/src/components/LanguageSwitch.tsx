import { GlobalOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../i18n';

const loadMenu = () => import('./LanguageMenu');
const LanguageMenu = lazy(() => loadMenu().then((m) => ({ default: m.LanguageMenu })));

/**
 * Picks the interface language; the choice is kept in localStorage. The menu's code loads when the
 * pointer or the focus reaches the button, and the first click opens it.
 */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const [locale] = useLocale();
  const [wanted, setWanted] = useState(false);
  const button = (
    <Button
      type="text"
      icon={<GlobalOutlined />}
      aria-label={t('language')}
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onClick={wanted ? undefined : () => setWanted(true)}
    >
      {t(`languageNames.${locale}`)}
    </Button>
  );
  if (!wanted) return button;
  return (
    <Suspense fallback={button}>
      <LanguageMenu>{button}</LanguageMenu>
    </Suspense>
  );
}
