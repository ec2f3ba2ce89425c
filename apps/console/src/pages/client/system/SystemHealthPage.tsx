import { type HealthCheck, type HealthStatus, systemHealthRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Space, Spin, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import { PageTitle } from '../../../components/PageTitle';

const COLORS: Record<HealthStatus, string> = { ok: 'success', warn: 'warning', error: 'error' };

/**
 * `/client/systemManagement/systemHealth`: the health of the installation as the operator sees it
 * (GET client/health; docs/decisions.md "System health"), one row per part with its status and
 * what it found, written here from the check's numbers in the console's language.
 */
export function SystemHealthPage() {
  const { t } = useTranslation(['systemSettings', 'shell', 'common']);
  const health = useQuery(routeQuery('client', systemHealthRoutes.getSystemHealth, {}));
  const data = health.data?.data;
  const describe = (check: HealthCheck): string => {
    const d = check.details;
    const ok = check.status === 'ok';
    // A part whose check itself failed has no numbers (the analytics store never has any).
    if (check.status === 'error' && Object.keys(d).length === 0 && check.part !== 'analyticsStore') {
      return t('health.notChecked');
    }
    switch (check.part) {
      case 'configStore':
        return t(ok ? 'health.describe.configStore.ok' : 'health.describe.configStore.error', d);
      case 'analyticsStore':
        return t(ok ? 'health.describe.analyticsStore.ok' : 'health.describe.analyticsStore.error');
      case 'jobQueue':
        return t(ok ? 'health.describe.jobQueue.ok' : 'health.describe.jobQueue.warn', d);
      case 'nodes':
        return t('health.describe.nodes', d);
      case 'certificates':
        return t(ok ? 'health.describe.certificates.ok' : 'health.describe.certificates.warn', d);
      case 'dns':
        return t(ok ? 'health.describe.dns.ok' : 'health.describe.dns.warn', d);
      case 'licence':
        if (d.source === 'none') return t('health.describe.licence.none');
        return t(check.status === 'error' ? 'health.describe.licence.expired' : 'health.describe.licence.expires', d);
    }
  };
  return (
    <>
      <PageTitle>{t('shell:menu.systemHealth')}</PageTitle>
      {health.isError && (
        <Alert
          type="error"
          title={t('health.failed')}
          action={<Button onClick={() => void health.refetch()}>{t('common:actions.retry')}</Button>}
        />
      )}
      {!data && !health.isError && <Spin />}
      {data && (
        <>
          <Space style={{ marginBottom: 16 }}>
            <span>{t('health.overall')}</span>
            <Tag color={COLORS[data.status]}>{t(`health.status.${data.status}`)}</Tag>
            <span>{t('health.checkedAt', { at: new Date(data.checkedAt).toLocaleString() })}</span>
            <Button onClick={() => void health.refetch()} loading={health.isFetching}>
              {t('health.refresh')}
            </Button>
          </Space>
          <Table<HealthCheck>
            rowKey="part"
            pagination={false}
            dataSource={data.checks}
            columns={[
              { title: t('health.part'), key: 'part', render: (_, c) => t(`health.parts.${c.part}`) },
              {
                title: t('health.statusColumn'),
                key: 'status',
                render: (_, c) => <Tag color={COLORS[c.status]}>{t(`health.status.${c.status}`)}</Tag>,
              },
              { title: t('health.message'), key: 'message', render: (_, c) => describe(c) },
            ]}
          />
        </>
      )}
    </>
  );
}
