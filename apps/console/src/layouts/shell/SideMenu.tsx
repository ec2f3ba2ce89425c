import type { Tier } from '@rampart/contract';
import { Menu, type MenuProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useAccount } from '../../app/account-context';
import { CONSOLE_MENUS, isCurrentLeaf, isMenuGroup, type MenuLeaf, visibleMenu } from './console-menus';

type Items = NonNullable<MenuProps['items']>;

/**
 * The console's sidebar menu; entries are links, the current page is selected and its group open.
 * Only the pages the caller holds the key of are listed.
 */
export function SideMenu({ tier }: { tier: Tier }) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const { permissions } = useAccount();
  const entries = useMemo(() => visibleMenu(CONSOLE_MENUS[tier], permissions), [tier, permissions]);

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
    <Menu
      mode="inline"
      items={items}
      selectedKeys={selected}
      defaultOpenKeys={openGroups}
      aria-label={t('navigation')}
      style={{ borderInlineEnd: 'none' }}
    />
  );
}
