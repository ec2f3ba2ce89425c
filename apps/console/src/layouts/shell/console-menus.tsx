import { DashboardOutlined, LockOutlined, TeamOutlined } from '@ant-design/icons';
import type { Tier } from '@rampart/contract';
import type { ReactNode } from 'react';
import { CONSOLE_PATHS } from '../../app/console-paths';
import type { LocaleResources } from '../../i18n/resources';

export type MenuKey = keyof LocaleResources['shell']['menu'];

/** A page in the sidebar; `path` is relative to `/{tier}/`. */
export interface MenuLeaf {
  readonly key: MenuKey;
  readonly path: string;
  readonly icon?: ReactNode;
}

/** A group of the sidebar (spec part 1 §2: userManagement, sitesManagement, ...). */
export interface MenuGroup {
  readonly key: MenuKey;
  readonly icon?: ReactNode;
  readonly children: readonly MenuLeaf[];
}

export type MenuEntry = MenuLeaf | MenuGroup;

export function isMenuGroup(entry: MenuEntry): entry is MenuGroup {
  return 'children' in entry;
}

const dashboard: MenuLeaf = { key: 'dashboard', path: CONSOLE_PATHS.dashboard, icon: <DashboardOutlined /> };
const changePassword: MenuLeaf = { key: 'changePassword', path: CONSOLE_PATHS.changePassword, icon: <LockOutlined /> };
const userInformation: MenuLeaf = { key: 'userInformation', path: CONSOLE_PATHS.userInformation };
const twoFactor: MenuLeaf = { key: 'twoFactor', path: CONSOLE_PATHS.twoFactor };

/**
 * The sidebar of each console, in the spec's order (part 1 §2). Only pages that work are listed;
 * later issues add their groups and entries here (e.g. sitesManagement between userManagement
 * and changePassword in the user console; usersList, roles, ... inside userManagement).
 */
export const CONSOLE_MENUS: Readonly<Record<Tier, readonly MenuEntry[]>> = {
  user: [
    dashboard,
    { key: 'userManagement', icon: <TeamOutlined />, children: [userInformation, twoFactor] },
    changePassword,
  ],
  client: [
    dashboard,
    { key: 'userManagement', icon: <TeamOutlined />, children: [userInformation, twoFactor] },
    changePassword,
  ],
  admin: [
    dashboard,
    { key: 'userManagement', icon: <TeamOutlined />, children: [userInformation, twoFactor] },
    changePassword,
  ],
};
