import type { Tier } from '@rampart/contract';
import { Menu, type MenuProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useAccount } from '../../app/account-context';
import { CONSOLE_MENUS, isCurrentLeaf, isMenuGroup, type MenuLeaf, visibleMenu } from './console-menus';

type Items = NonNullable<MenuProps['items']>;

/**
 * The open sidebar shows each label whole: a long one ("Two-factor authentication", a translation)
 * wraps onto a second line instead of ending in "…". The collapsed sidebar keeps antd's look.
 */
const WRAPPING_LABELS = `
.rampart-side-menu.ant-menu-inline .ant-menu-item,
.rampart-side-menu.ant-menu-inline .ant-menu-submenu-title {
  height: auto;
  min-height: 40px;
  line-height: 1.4;
  padding-block: 9px;
  white-space: normal;
}
.rampart-side-menu.ant-menu-inline .ant-menu-title-content {
  white-space: normal;
  overflow: visible;
  text-overflow: clip;
  overflow-wrap: anywhere;
}
`;

/**
 * The console's sidebar menu; entries are links, the current page is selected and its group open.
 * Only the pages the caller holds the key of, and its operator has not switched off, are listed.
 */
export function SideMenu({ tier }: { tier: Tier }) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const { permissions, l4AttackPage } = useAccount();
  const entries = useMemo(
    () => visibleMenu(CONSOLE_MENUS[tier], { permissions, l4AttackPage }),
    [tier, permissions, l4AttackPage],
  );

  const leaf = (entry: MenuLeaf) => ({
    key: entry.path,
    icon: entry.icon,
    label: <Link to={`/${tier}/${entry.path}`}>{t(`menu.${entry.key}`)}</Link>,
  });
  const items: Items = entries.map((entry) =>
    isMenuGroup(entry)
      ? { key: entry.key, icon: entry.icon, label: t(`menu.${entry.key}`), children: entry.children.map(leaf) }
      : leaf(entry),
  );

  const current = pathname.slice(`/${tier}/`.length);
  const selected = entries
    .flatMap((entry) => (isMenuGroup(entry) ? entry.children : [entry]))
    .filter((candidate) => isCurrentLeaf(candidate, current))
    .map((candidate) => candidate.path);
  const openGroups = useMemo(
    () =>
      entries
        .filter((entry) => isMenuGroup(entry) && entry.children.some((child) => isCurrentLeaf(child, current)))
        .map((entry) => entry.key),
    [entries, current],
  );

  return (
    <>
      <style>{WRAPPING_LABELS}</style>
      <Menu
        className="rampart-side-menu"
        mode="inline"
        items={items}
        selectedKeys={selected}
        defaultOpenKeys={openGroups}
        aria-label={t('navigation')}
        style={{ borderInlineEnd: 'none' }}
      />
    </>
  );
}
