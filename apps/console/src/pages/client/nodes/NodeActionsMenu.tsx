import { DownOutlined } from '@ant-design/icons';
import type { InitializedNode } from '@rampart/contract';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  COMMAND_ACTIONS,
  commonZone,
  isZoneCommand,
  type NodeAction,
  type NodeActionKind,
  SETTING_ACTIONS,
  SWITCH_ACTIONS,
} from './node-actions';
import { upgradeBlocked, useLatestVersion } from './node-upgrade-ui';

/**
 * The menu of node actions for one row or for the selected rows: commands, the on/off switch and
 * the settings. Reboot and reset are offered only for nodes of one zone (their call names it); a
 * single node is offered only the switch position it is not in; the upgrade only when the control
 * plane has the latest release and some node runs another version.
 */
export function NodeActionsMenu({
  nodes,
  label,
  size,
  onPick,
}: {
  nodes: InitializedNode[];
  label: string;
  size?: 'small';
  onPick: (action: NodeAction) => void;
}) {
  const { t } = useTranslation(['nodeOps', 'nodeUpgrade']);
  const oneZone = commonZone(nodes) !== null;
  const only = nodes.length === 1 ? nodes[0] : undefined;
  const latest = useLatestVersion().data?.data;
  const blocked = upgradeBlocked(nodes, latest);
  const why = (kind: NodeActionKind) => {
    if (isZoneCommand(kind) && !oneZone) return t('oneZone');
    if (kind === 'upgrade' && blocked) return t(`nodeUpgrade:${blocked}`, { version: latest?.version ?? '' });
    return undefined;
  };
  const item = (kind: NodeActionKind) => ({
    key: kind,
    label: t(`actions.${kind}`),
    disabled: why(kind) !== undefined,
    title: why(kind),
  });
  const items: MenuProps['items'] = [
    ...COMMAND_ACTIONS.map(item),
    { type: 'divider' },
    ...SWITCH_ACTIONS.filter((kind) => only === undefined || only.status !== kind).map(item),
    { type: 'divider' },
    ...SETTING_ACTIONS.map(item),
  ];
  return (
    <Dropdown
      trigger={['click']}
      disabled={nodes.length === 0}
      menu={{ items, onClick: ({ key }) => onPick({ kind: key as NodeActionKind, nodes }) }}
    >
      <Button size={size}>
        {label} <DownOutlined />
      </Button>
    </Dropdown>
  );
}
