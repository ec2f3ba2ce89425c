import { type InitializedNode, NODE_LIST_REFRESH_MS, nodeRoutes, PAGE_SIZE_MAX } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Space, Spin, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { routeQuery, useCallsMutation } from '../../../app/route-query';
import type { ListColumns } from '../../../components/FitTable';
import { LoadFailed } from '../../../components/LoadFailed';
import { PageTitle } from '../../../components/PageTitle';
import { actionsColumn } from '../../../components/RowActions';
import { RowDrawer } from '../../../components/RowDrawer';
import { useListSearch } from '../../../features/lists/use-list-search';
import { useSelectedRows } from '../../../features/lists/use-selected-rows';
import { callAuthed } from '../../../session';
import { InitializedNodesTable } from '../nodes/InitializedNodesTab';
import { useNodeActionDialog } from '../nodes/NodeActionModal';
import { NodeUpgradeLogs } from '../nodes/NodeUpgradeLogs';
import { BUILD_AGENT, useLatestVersion, useUpgradeStatusColumn } from '../nodes/node-upgrade-ui';

/**
 * `/client/systemManagement/systemUpgrade` (spec part 1 §2 `systemUpgrade`): the control plane's
 * version, whether it has the agent release of that version to serve, and the operator's
 * initialised nodes on any other version (server-paged, `notVersion`). Selected nodes, or all of
 * them (up to one call's 500), are upgraded with the nodes list's upgrade dialog; the list reloads
 * while a node is upgrading; a node's upgrade log opens in a drawer. See docs/decisions.md
 * "Version upgrade page".
 */
export function SystemUpgradePage() {
  const { t } = useTranslation(['nodeUpgrade', 'nodes', 'shell']);
  const canWrite = useCan('client.nodes.write');
  const latest = useLatestVersion();
  const release = latest.data?.data;
  const search = useListSearch([] as const);
  const query = { page: search.page, pageSize: search.pageSize, notVersion: release?.version ?? '' };
  const nodes = useQuery({
    ...routeQuery('client', nodeRoutes.listInitializedNodes, { query }),
    enabled: release !== undefined,
    // Reload while an upgrade runs: a node that reports the new version leaves the list.
    refetchInterval: (q) =>
      q.state.data?.data.some((node) => node.upgradeStatus === 'upgrading') ? NODE_LIST_REFRESH_MS : false,
  });
  const { selected, rowSelection, clear } = useSelectedRows<InitializedNode>();
  const actions = useNodeActionDialog(clear);
  const [logsOf, setLogsOf] = useState<InitializedNode | null>(null);
  const upgradeColumn = useUpgradeStatusColumn();
  const loadAll = useCallsMutation(
    'client',
    () =>
      callAuthed('client', nodeRoutes.listInitializedNodes, {
        query: { page: 1, pageSize: PAGE_SIZE_MAX, notVersion: release?.version ?? '' },
      }),
    { invalidates: [], onSuccess: (reply) => actions.open({ kind: 'upgrade', nodes: reply.data }) },
  );
  const total = nodes.data?.total ?? 0;
  const canUpgrade = canWrite && release?.available === true;

  const columns: ListColumns<InitializedNode> = [
    { title: t('nodes:name'), dataIndex: 'name' },
    { title: t('nodes:ips'), dataIndex: 'ips', render: (ips: string[]) => ips.join(', ') },
    { title: t('nodes:zone'), dataIndex: 'zoneName', ellipsis: true, maxWidth: 140 },
    { title: t('version'), dataIndex: 'version', render: (version: string) => version || '—' },
    upgradeColumn,
    actionsColumn((node) => (
      <Button size="small" onClick={() => setLogsOf(node)}>
        {t('logs')}
      </Button>
    )),
  ];

  return (
    <>
      <PageTitle>{t('shell:menu.systemUpgrade')}</PageTitle>
      {latest.isError && <LoadFailed title={t('page.failed')} onRetry={() => void latest.refetch()} />}
      {latest.isLoading && <Spin />}
      {release && (
        <>
          <Card style={{ marginBottom: 16 }}>
            <Descriptions column={1}>
              <Descriptions.Item label={t('page.controlPlane')}>{release.version}</Descriptions.Item>
              <Descriptions.Item label={t('page.release')}>
                {release.available ? (
                  <Tag color="blue">{t('page.served', { version: release.version })}</Tag>
                ) : (
                  <Tag color="orange">{t('page.none')}</Tag>
                )}
              </Descriptions.Item>
            </Descriptions>
            {!release.available && (
              <Alert
                type="warning"
                showIcon
                title={t('unavailable', { version: release.version, command: BUILD_AGENT })}
              />
            )}
          </Card>
          <Card
            title={t('page.nodes', { version: release.version })}
            extra={
              <Space>
                <Button
                  disabled={!canUpgrade || selected.length === 0}
                  onClick={() => actions.open({ kind: 'upgrade', nodes: selected })}
                >
                  {t('page.upgradeSelected', { count: selected.length })}
                </Button>
                <Button
                  type="primary"
                  disabled={!canUpgrade || total === 0}
                  loading={loadAll.isPending}
                  onClick={() => loadAll.mutate(undefined)}
                >
                  {t('page.upgradeAll', { count: Math.min(total, PAGE_SIZE_MAX) })}
                </Button>
              </Space>
            }
          >
            <InitializedNodesTable
              emptyText={t('page.empty', { version: release.version })}
              list={nodes}
              paging={search}
              columns={columns}
              rowSelection={canUpgrade ? rowSelection : undefined}
            />
          </Card>
        </>
      )}
      {actions.dialog}
      <RowDrawer
        row={logsOf}
        title={(node) => t('page.logsOf', { name: node.name })}
        size={640}
        onClose={() => setLogsOf(null)}
      >
        {(node) => <NodeUpgradeLogs nodeId={node.id} />}
      </RowDrawer>
    </>
  );
}
