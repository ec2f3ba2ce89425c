import { LICENSE_KINDS, licenseRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CLIENT_PATHS } from '../../../app/console-paths';
import { routeQuery } from '../../../app/route-query';
import { ListEmpty } from '../../../components/ListEmpty';
import { UseBar } from '../../../features/dashboard/UsePanels';

/** The operator's licence: what is used of each kind it limits, and its expiry. */
export function LicenseUse() {
  const { t } = useTranslation(['overview', 'licenses']);
  const info = useQuery(routeQuery('client', licenseRoutes.getOwnLicense, {}));
  const data = info.data?.data;
  return (
    <Card
      title={t('licenseTitle')}
      loading={info.isLoading}
      data-testid="license-use"
      extra={<Link to={`/client/${CLIENT_PATHS.license}`}>{t('open')}</Link>}
      style={{ height: '100%' }}
    >
      {info.isError || !data ? (
        <ListEmpty text={t('failed')} failed onRetry={() => info.refetch()} />
      ) : data.source === 'none' ? (
        <Alert type="info" showIcon message={t('licenses:noneHint')} />
      ) : (
        <Flex vertical gap={8}>
          {data.expired ? (
            <Alert type="error" showIcon message={t('licenseExpired')} />
          ) : (
            data.daysLeft !== null && (
              <Typography.Text>{t('licenses:daysLeft', { count: data.daysLeft })}</Typography.Text>
            )
          )}
          {LICENSE_KINDS.map((kind) => (
            <UseBar
              key={kind}
              label={t(`licenses:kinds.${kind}`)}
              used={data.usage[kind].used}
              limit={data.usage[kind].limit}
              format={String}
            />
          ))}
        </Flex>
      )}
    </Card>
  );
}
