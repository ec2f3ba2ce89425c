import { formatBytesText, userResourceRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';

/**
 * The customer's totals above its site list (`user/resourceInfo`): sites, domains, and this and
 * last month's traffic (0 until traffic is recorded, which the hint says).
 */
export function ResourceSummary() {
  const { t } = useTranslation('sites');
  const info = useQuery(routeQuery('user', userResourceRoutes.getResourceInfo, {}));
  const data = info.data?.data;
  const items = [
    { key: 'sites', title: t('resources.sites'), value: data ? String(data.siteCount) : '–' },
    { key: 'domains', title: t('resources.domains'), value: data ? String(data.domainCount) : '–' },
    {
      key: 'current',
      title: t('resources.currentMonthTraffic'),
      value: data ? formatBytesText(data.currentMonthTraffic) : '–',
      hint: t('resources.trafficHint'),
    },
    {
      key: 'last',
      title: t('resources.lastMonthTraffic'),
      value: data ? formatBytesText(data.lastMonthTraffic) : '–',
      hint: t('resources.trafficHint'),
    },
  ];
  return (
    <Row gutter={[16, 16]} style={{ marginBottom: 16 }} data-testid="resource-summary">
      {items.map((item) => (
        <Col key={item.key} xs={12} md={6}>
          <Card size="small" loading={info.isLoading}>
            <Statistic
              title={item.hint ? <Tooltip title={item.hint}>{item.title}</Tooltip> : item.title}
              value={item.value}
            />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
