import { l4AttackPageSettingRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';

/**
 * Whether the operator's customers find the layer-4 attack page in their console's menu
 * (`GET/PUT client/setting/l4AttackPage`, off by default); on the geo database page, beside the
 * ASN database that page's ASN top reads.
 */
export function L4AttackPageSetting() {
  const { t } = useTranslation('geoDatabase');
  const canWrite = useCan('client.settings.write');
  const setting = useQuery(routeQuery('client', l4AttackPageSettingRoutes.getL4AttackPageSetting, {}));
  const save = useRouteMutation('client', l4AttackPageSettingRoutes.putL4AttackPageSetting, {
    input: (enabled: boolean) => ({ body: { enabled } }),
    invalidates: changes('l4AttackPageSetting'),
    success: () => toastText('setSuccess'),
  });
  const enabled = setting.data?.data.enabled;
  return (
    <Card title={t('l4AttackPage.title')} style={{ maxWidth: 720, marginBottom: 24 }}>
      <Space direction="vertical">
        <Space>
          <Switch
            checked={enabled ?? false}
            loading={setting.isLoading || save.isPending}
            disabled={!canWrite || enabled === undefined}
            aria-label={t('l4AttackPage.shown')}
            onChange={(next) => save.mutate(next)}
          />
          <Typography.Text>{t('l4AttackPage.shown')}</Typography.Text>
        </Space>
        <Typography.Paragraph type="secondary">{t('l4AttackPage.hint')}</Typography.Paragraph>
      </Space>
    </Card>
  );
}
