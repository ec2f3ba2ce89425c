import { CheckCircleFilled, ClockCircleOutlined } from '@ant-design/icons';
import { type Overview, overviewRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Flex, List, Row, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CLIENT_PATHS } from '../../../app/console-paths';
import { routeQuery } from '../../../app/route-query';
import { DateTime } from '../../../components/DateTime';
import { FitTable, type ListColumns } from '../../../components/FitTable';

type Step = keyof Overview['checklist'];
type NodeProblem = NonNullable<Overview['nodes']>['problems'][number];

/** The first-run steps in the order they depend on each other, each with the page that does it. */
const STEPS: readonly { step: Step; path: string }[] = [
  { step: 'zone', path: CLIENT_PATHS.zonesList },
  { step: 'group', path: CLIENT_PATHS.zonesList },
  { step: 'node', path: CLIENT_PATHS.nodesList },
  { step: 'product', path: CLIENT_PATHS.productsList },
  { step: 'site', path: CLIENT_PATHS.sitesList },
  // Before the first domain: with proof required it is not served until its DNS record is found.
  { step: 'domainProof', path: CLIENT_PATHS.cname },
  { step: 'domain', path: CLIENT_PATHS.domains },
  { step: 'certificate', path: CLIENT_PATHS.sitesList },
  { step: 'cnameDomain', path: CLIENT_PATHS.cname },
];

/**
 * The operator's dashboard until the analytics widgets exist (`GET client/overview`): the
 * first-run checklist while a step is open, and nodes, sites and certificates at a glance (each
 * only when the account may read them).
 */
export function ClientOverviewPanels() {
  const { t } = useTranslation(['overview', 'common']);
  const overview = useQuery(routeQuery('client', overviewRoutes.getClientOverview, {}));
  const data = overview.data?.data;
  if (overview.isError) {
    return (
      <Alert
        type="error"
        showIcon
        message={t('failed')}
        action={<Button onClick={() => overview.refetch()}>{t('common:actions.retry')}</Button>}
      />
    );
  }
  return (
    <Flex vertical gap={16}>
      {data && <Checklist checklist={data.checklist} proofRequired={data.domainProofRequired} />}
      <Row gutter={[16, 16]}>
        {(overview.isLoading || data?.sites) && (
          <Col xs={24} lg={12}>
            <Card title={t('sitesTitle')} loading={overview.isLoading} data-testid="overview-sites">
              {data?.sites && (
                <Statistics
                  items={[
                    [t('sites'), data.sites.sites],
                    [t('domains'), data.sites.domains],
                    [t('proofPending'), data.sites.proofPending],
                    [t('cnameUnverified'), data.sites.cnameUnverified],
                  ]}
                />
              )}
            </Card>
          </Col>
        )}
        {(overview.isLoading || data?.certificates) && (
          <Col xs={24} lg={12}>
            <Card title={t('certificatesTitle')} loading={overview.isLoading} data-testid="overview-certificates">
              {data?.certificates && (
                <Statistics
                  items={[
                    [t('total'), data.certificates.total],
                    [t('expiringSoon'), data.certificates.expiringSoon],
                    [t('expired'), data.certificates.expired],
                  ]}
                />
              )}
            </Card>
          </Col>
        )}
      </Row>
      {(overview.isLoading || data?.nodes) && <Nodes nodes={data?.nodes ?? null} loading={overview.isLoading} />}
    </Flex>
  );
}

/** One row of labelled counts, sharing the row's width equally. */
function Statistics({ items }: { items: readonly (readonly [string, number])[] }) {
  return (
    <Row gutter={16}>
      {items.map(([title, value]) => (
        <Col key={title} span={24 / items.length}>
          <Statistic title={title} value={value} />
        </Col>
      ))}
    </Row>
  );
}

function Checklist({ checklist, proofRequired }: { checklist: Overview['checklist']; proofRequired: boolean }) {
  const { t } = useTranslation('overview');
  if (STEPS.every(({ step }) => checklist[step])) return null;
  return (
    <Card title={t('checklistTitle')} data-testid="overview-checklist">
      <List
        dataSource={[...STEPS]}
        rowKey="step"
        renderItem={({ step, path }) => (
          <List.Item
            data-testid={`step-${step}`}
            data-done={checklist[step]}
            extra={checklist[step] ? null : <Link to={`/client/${path}`}>{t('open')}</Link>}
          >
            <Flex gap={8} align="center">
              {checklist[step] ? (
                <CheckCircleFilled style={{ color: '#52c41a' }} aria-hidden />
              ) : (
                <ClockCircleOutlined aria-hidden />
              )}
              <Typography.Text delete={checklist[step]}>
                {t(`steps.${step}`, {
                  state: t(`proofStates.${proofRequired ? 'required' : 'waived'}`),
                  env: 'RAMPART_DOMAIN_PROOF',
                })}
              </Typography.Text>
            </Flex>
          </List.Item>
        )}
      />
    </Card>
  );
}

function Nodes({ nodes, loading }: { nodes: Overview['nodes']; loading: boolean }) {
  const { t } = useTranslation(['overview', 'nodes']);
  const columns: ListColumns<NodeProblem> = [
    { title: t('node'), dataIndex: 'name', render: (name: string, row) => `${name} (${row.ip})` },
    {
      title: t('connection'),
      dataIndex: 'connection',
      render: (value: NodeProblem['connection']) => (
        <Tag color={value === 'online' ? 'green' : 'red'}>{t(`nodes:connection.${value}`)}</Tag>
      ),
    },
    { title: t('lastError'), dataIndex: 'lastError', ellipsis: true },
    {
      title: t('lastSeenAt'),
      dataIndex: 'lastSeenAt',
      render: (value: string | null) => (value ? <DateTime value={value} /> : t('never')),
    },
  ];
  return (
    <Card title={t('nodesTitle')} loading={loading} data-testid="overview-nodes">
      {nodes && (
        <Flex vertical gap={16}>
          <Statistics
            items={[
              [t('total'), nodes.total],
              [t('online'), nodes.online],
              [t('offline'), nodes.offline],
              [t('uninitialized'), nodes.uninitialized],
            ]}
          />
          {nodes.versions.length > 0 && (
            <Flex gap={8} wrap align="center" data-testid="overview-versions">
              <Typography.Text type="secondary">{t('versions')}</Typography.Text>
              {nodes.versions.map((v) => (
                <Tag key={v.version}>
                  {v.version} × {v.nodes}
                </Tag>
              ))}
            </Flex>
          )}
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t('problemsTitle')}
          </Typography.Title>
          <FitTable<NodeProblem>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={nodes.problems}
            pagination={false}
            locale={{ emptyText: t('noProblems') }}
          />
        </Flex>
      )}
    </Card>
  );
}
