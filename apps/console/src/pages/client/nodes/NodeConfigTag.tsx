import type { InitializedNode } from '@rampart/contract';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

type NodeConfig = Pick<InitializedNode, 'appliedVersion' | 'currentVersion' | 'appliedPlane' | 'currentPlane'>;

/**
 * A node is in sync when it applied the current snapshot and, when it takes its data plane as
 * entries, holds its plane's last change (the sequences are decimal bigints).
 */
export function configInSync(node: NodeConfig): boolean {
  if (node.appliedVersion !== node.currentVersion) return false;
  if (node.currentPlane === '' || node.appliedPlane === '') return true;
  return BigInt(node.appliedPlane) >= BigInt(node.currentPlane);
}

/** In sync or pending, with the applied and current snapshot and plane on hover (node list, dashboard). */
export function NodeConfigTag({ node, name }: { node: NodeConfig; name?: string }) {
  const { t } = useTranslation('nodes');
  return (
    <Tooltip
      title={
        <>
          {t('config.versions', { applied: node.appliedVersion || '—', current: node.currentVersion })}
          {node.currentPlane !== '' && (
            <div>{t('config.planes', { applied: node.appliedPlane, current: node.currentPlane })}</div>
          )}
        </>
      }
    >
      {configInSync(node) ? (
        <Tag color="green" aria-label={name && t('config.of', { name })}>
          {t('config.inSync')}
        </Tag>
      ) : (
        <Tag color="orange" aria-label={name && t('config.of', { name })}>
          {t('config.pending')}
        </Tag>
      )}
    </Tooltip>
  );
}
