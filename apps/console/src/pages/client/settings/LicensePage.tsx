import { LICENSE_KINDS, LICENSE_WARN_DAYS, type LicenseInfo, type LicenseKind, licenseRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Input, Space, Spin, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { CopyButton } from '../../../components/CopyButton';
import { DateTime } from '../../../components/DateTime';
import { PageTitle } from '../../../components/PageTitle';

/**
 * `/client/systemManagement/license`: the operator's licence (`client/license`): where it comes
 * from, what it allows, what is used and left of each kind, a warning from LICENSE_WARN_DAYS before
 * its expiry, and the activation of an offline licence key for this installation's ID.
 */
export function LicensePage() {
  const { t } = useTranslation(['licenses', 'shell']);
  const info = useQuery(routeQuery('client', licenseRoutes.getOwnLicense, {}));
  return (
    <>
      <PageTitle>{t('shell:menu.license')}</PageTitle>
      {info.data ? (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <LicenseSummary info={info.data.data} />
          <ActivateOffline info={info.data.data} />
        </Space>
      ) : (
        <Spin />
      )}
    </>
  );
}

function ExpiryAlert({ info }: { info: LicenseInfo }) {
  const { t } = useTranslation('licenses');
  if (!info.licenseSetting || info.daysLeft === null) return null;
  const date = new Date(info.licenseSetting.expiredAt).toLocaleDateString();
  if (info.expired) return <Alert type="error" showIcon message={t('expired', { date })} />;
  if (info.daysLeft <= LICENSE_WARN_DAYS) {
    return <Alert type="warning" showIcon message={t('expiresSoon', { count: info.daysLeft, date })} />;
  }
  return null;
}

function LicenseSummary({ info }: { info: LicenseInfo }) {
  const { t } = useTranslation('licenses');
  const limit = (n: number) => (n < 0 ? t('unlimited') : n);
  const rows = LICENSE_KINDS.map((kind: LicenseKind) => ({ kind, ...info.usage[kind] }));
  return (
    <Card title={t('current')}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <ExpiryAlert info={info} />
        {info.source === 'none' && <Alert type="info" showIcon message={t('noneHint')} />}
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t('source')}>{t(`sources.${info.source}`)}</Descriptions.Item>
          {info.licenseSetting && (
            <Descriptions.Item label={t('expiredAt')}>
              <Space>
                <DateTime value={info.licenseSetting.expiredAt} />
                {!info.expired && info.daysLeft !== null && <span>({t('daysLeft', { count: info.daysLeft })})</span>}
              </Space>
            </Descriptions.Item>
          )}
        </Descriptions>
        <Table
          rowKey="kind"
          size="small"
          pagination={false}
          dataSource={rows}
          columns={[
            { title: t('limits'), dataIndex: 'kind', render: (kind: LicenseKind) => t(`kinds.${kind}`) },
            { title: t('used'), dataIndex: 'used' },
            { title: t('limit'), dataIndex: 'limit', render: limit },
            { title: t('left'), dataIndex: 'left', render: limit },
          ]}
        />
      </Space>
    </Card>
  );
}

/** The installation's ID to send to the vendor, and the key it sends back. */
function ActivateOffline({ info }: { info: LicenseInfo }) {
  const { t } = useTranslation('licenses');
  const canWrite = useCan('client.license.write');
  const [key, setKey] = useState('');
  const options = {
    input: (value: string) => ({ query: { key: value.trim() } }),
    invalidates: changes('licenses'),
    success: () => toastText('updateSuccess'),
    onSuccess: () => setKey(''),
  };
  const activate = useRouteMutation('client', licenseRoutes.activateOfflineLicense, options);
  const renew = useRouteMutation('client', licenseRoutes.updateOfflineLicenseKey, options);
  return (
    <Card title={t('activateTitle')}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">{t('activateHint')}</Typography.Paragraph>
        <Space>
          <span>{t('installID')}:</span>
          <Typography.Text code>{info.installID}</Typography.Text>
          <CopyButton text={info.installID} />
        </Space>
        <Space>
          <span>{t('operatorAccount')}:</span>
          <Typography.Text code>{info.operator}</Typography.Text>
          <CopyButton text={info.operator} />
        </Space>
        <Input.TextArea
          aria-label={t('key')}
          rows={4}
          value={key}
          onChange={(event) => setKey(event.target.value)}
          disabled={!canWrite}
        />
        <Space>
          <Button
            type="primary"
            disabled={!canWrite || key.trim() === ''}
            loading={activate.isPending}
            onClick={() => activate.mutate(key)}
          >
            {t('activate')}
          </Button>
          {info.source === 'offline' && (
            <Button
              disabled={!canWrite || key.trim() === ''}
              loading={renew.isPending}
              onClick={() => renew.mutate(key)}
            >
              {t('updateKey')}
            </Button>
          )}
        </Space>
      </Space>
    </Card>
  );
}
