import { domainProofRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';

/**
 * Whether the operator's customers must prove control of a domain before it is served
 * (`GET/PUT client/setting/domainProof`); off means the operator vouches for them.
 */
export function DomainProofSetting() {
  const { t } = useTranslation('cnameSetting');
  const canWrite = useCan('client.settings.write');
  const setting = useQuery(routeQuery('client', domainProofRoutes.getDomainProofSetting, {}));
  const save = useRouteMutation('client', domainProofRoutes.putDomainProofSetting, {
    input: (required: boolean) => ({ body: { required } }),
    invalidates: changes('domainProofSetting', 'domains'),
    success: () => toastText('setSuccess'),
  });
  const required = setting.data?.data.required;
  return (
    <Card title={t('proof.title')} style={{ maxWidth: 720, marginTop: 24 }}>
      <Space direction="vertical">
        <Space>
          <Switch
            checked={required ?? true}
            loading={setting.isLoading || save.isPending}
            disabled={!canWrite || required === undefined}
            aria-label={t('proof.required')}
            onChange={(next) => save.mutate(next)}
          />
          <Typography.Text>{t('proof.required')}</Typography.Text>
        </Space>
        <Typography.Paragraph type="secondary">{t('proof.hint')}</Typography.Paragraph>
      </Space>
    </Card>
  );
}
