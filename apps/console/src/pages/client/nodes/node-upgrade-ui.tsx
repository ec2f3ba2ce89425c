import {
  type InitializedNode,
  NODE_UPGRADE_STATUSES,
  type NodeUpgradeStatus,
  nodeUpgradeRoutes,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Select, type TableColumnsType, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';

/** The command that builds the agent release the control plane serves (a command, not a text to translate). */
export const BUILD_AGENT = 'npm run build -w @rampart/edge';

const STATUS_COLORS: Record<NodeUpgradeStatus, string> = {
  none: 'default',
  upgrading: 'processing',
  succeeded: 'green',
  failed: 'red',
};

/** The agent version nodes upgrade to, and whether the control plane has that release. */
export function useLatestVersion() {
  return useQuery(routeQuery('client', nodeUpgradeRoutes.getLatestNodeVersion, {}));
}

/** Why the upgrade action is not offered for `nodes`, or null when it is. */
export function upgradeBlocked(
  nodes: readonly InitializedNode[],
  latest: { version: string; available: boolean } | undefined,
): 'unavailable' | 'upToDate' | null {
  if (!latest?.available) return 'unavailable';
  return nodes.every((node) => node.version === latest.version) ? 'upToDate' : null;
}

/** The node list's upgrade status column. */
export function useUpgradeStatusColumn(): TableColumnsType<InitializedNode>[number] {
  const { t } = useTranslation('nodeUpgrade');
  return {
    title: t('status.title'),
    dataIndex: 'upgradeStatus',
    render: (value: NodeUpgradeStatus) => <Tag color={STATUS_COLORS[value]}>{t(`status.${value}`)}</Tag>,
  };
}

/** Upgrade statuses from the URL that are statuses. */
export function upgradeStatusesOf(values: readonly string[]): NodeUpgradeStatus[] {
  return values.filter((v): v is NodeUpgradeStatus => (NODE_UPGRADE_STATUSES as readonly string[]).includes(v));
}

/** The latest version beside the list's filters, and the upgrade status filter (several at once). */
export function UpgradeFilter({
  value,
  onChange,
}: {
  value: NodeUpgradeStatus[];
  onChange: (statuses: NodeUpgradeStatus[]) => void;
}) {
  const { t } = useTranslation('nodeUpgrade');
  const latest = useLatestVersion().data?.data;
  return (
    <>
      <Select
        mode="multiple"
        allowClear
        style={{ minWidth: 180 }}
        placeholder={t('filter')}
        aria-label={t('filter')}
        value={value}
        options={NODE_UPGRADE_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) }))}
        onChange={onChange}
      />
      {latest && (
        <Tag
          color={latest.available ? 'blue' : 'orange'}
          title={latest.available ? undefined : t('unavailable', { version: latest.version, command: BUILD_AGENT })}
          style={{ alignSelf: 'center' }}
        >
          {t('latest', { version: latest.version })}
        </Tag>
      )}
    </>
  );
}
