import { announcementRoutes, type UserProduct, userResourceRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Flex, List, type TableColumnsType, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { routeQuery } from '../../../app/route-query';
import { DateTime } from '../../../components/DateTime';
import { ListEmpty } from '../../../components/ListEmpty';
import { ListTable } from '../../../components/ListTable';
import { useLocalPaging } from '../../../features/lists/use-list-search';
import { ExpiringCertificates } from './ExpiringCertificates';

/** How many running announcements the dashboard shows (newest first). */
export const DASHBOARD_ANNOUNCEMENTS = 5;

/**
 * The customer's dashboard: its operator's running announcements, its certificates ending soon
 * (with the certificates' read key) and the products its sites are on.
 */
export function UserDashboardPanels() {
  const certificates = useCan('user.certificates.read');
  return (
    <Flex vertical gap={16}>
      <RunningAnnouncements />
      {certificates && <ExpiringCertificates />}
      <UserProducts />
    </Flex>
  );
}

function RunningAnnouncements() {
  const { t } = useTranslation('announcements');
  const list = useQuery(
    routeQuery('user', announcementRoutes.listUserAnnouncements, {
      query: { page: 1, pageSize: DASHBOARD_ANNOUNCEMENTS, running: 'true' },
    }),
  );
  return (
    <Card title={t('panelTitle')} loading={list.isLoading} data-testid="announcements-panel">
      {list.isError || (list.data?.data.length ?? 0) === 0 ? (
        <ListEmpty text={t('panelEmpty')} failed={list.isError} onRetry={() => list.refetch()} />
      ) : (
        <List
          itemLayout="vertical"
          dataSource={list.data?.data ?? []}
          rowKey="id"
          renderItem={(item) => (
            <List.Item extra={<DateTime value={item.createdAt} />}>
              <List.Item.Meta title={item.title} />
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
                {item.content}
              </Typography.Paragraph>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

function UserProducts() {
  const { t } = useTranslation(['userProducts', 'common']);
  const paging = useLocalPaging();
  const list = useQuery(
    routeQuery('user', userResourceRoutes.listUserProducts, {
      query: { page: paging.page, pageSize: paging.pageSize },
    }),
  );
  const columns: TableColumnsType<UserProduct> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('portType'), dataIndex: 'portType', render: (value: 7 | 4) => t(`common:portTypes.${value}`) },
    { title: t('siteCount'), dataIndex: 'siteCount' },
  ];
  return (
    <Card title={t('panelTitle')} data-testid="products-panel">
      <ListTable<UserProduct> rowKey="id" columns={columns} list={list} paging={paging} emptyText={t('empty')} />
    </Card>
  );
}
