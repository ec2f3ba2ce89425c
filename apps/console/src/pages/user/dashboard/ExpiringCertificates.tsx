import { CERTIFICATE_EXPIRING_DAYS, type ExpiringCertificate, expiringCertificateRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { siteSettingPath } from '../../../app/console-paths';
import { routeQuery } from '../../../app/route-query';
import { DateTime } from '../../../components/DateTime';
import { ListEmpty } from '../../../components/ListEmpty';

/**
 * The customer's certificates ending within CERTIFICATE_EXPIRING_DAYS days or ended, across its
 * sites, soonest first; each links to its site's certificates tab.
 */
export function ExpiringCertificates() {
  const { t } = useTranslation('expiringCertificates');
  const list = useQuery(routeQuery('user', expiringCertificateRoutes.userExpiringCertificates, {}));
  const data = list.data?.data;
  const columns: TableColumnsType<ExpiringCertificate> = [
    {
      title: t('name'),
      dataIndex: 'name',
      render: (name: string, c) => <Link to={`${siteSettingPath(c.siteID, c.siteName)}?tab=certificates`}>{name}</Link>,
    },
    { title: t('site'), dataIndex: 'siteName' },
    { title: t('notAfter'), dataIndex: 'notAfter', render: (value: string) => <DateTime value={value} /> },
    {
      key: 'status',
      render: (_, c) => <Tag color={c.status === 'expired' ? 'red' : 'orange'}>{t(c.status)}</Tag>,
    },
  ];
  return (
    <Card title={t('panelTitle')} loading={list.isLoading} data-testid="expiring-certificates">
      {list.isError || !data || data.certificates.length === 0 ? (
        <ListEmpty
          text={t('empty', { days: CERTIFICATE_EXPIRING_DAYS })}
          failed={list.isError}
          onRetry={() => list.refetch()}
        />
      ) : (
        <>
          <Table<ExpiringCertificate>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={data.certificates}
            pagination={false}
          />
          {data.total > data.certificates.length && (
            <Typography.Text type="secondary">
              {t('more', { shown: data.certificates.length, total: data.total })}
            </Typography.Text>
          )}
        </>
      )}
    </Card>
  );
}
