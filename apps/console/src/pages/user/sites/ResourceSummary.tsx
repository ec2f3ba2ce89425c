import { userResourceRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';

/**
 * The customer's totals above its site list (`user/resourceInfo`): sites and domains. The route's
 * traffic totals are not shown: they stay 0 until the analytics issue records traffic, and a figure
 * that is always 0 is not one.
 */
export function ResourceSummary() {
  const { t } = useTranslation('sites');
  const info = useQuery(routeQuery('user', userResourceRoutes.getResourceInfo, {}));
  const data = info.data?.data;
  const items = [
    { key: 'sites', title: t('resources.sites'), value: data ? String(data.siteCount) : '–' },
    { key: 'domains', title: t('resources.domains'), value: data ? String(data.domainCount) : '–' },
  ];
  return (
    <Row gutter={[16, 16]} style={{ marginBottom: 16 }} data-testid="resource-summary">
      {items.map((item) => (
        <Col key={item.key} xs={12} md={6}>
          <Card size="small" loading={info.isLoading}>
            <Statistic title={item.title} value={item.value} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
