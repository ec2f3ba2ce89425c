import { l4AttackPageSettingRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { SettingSwitchCard } from '../../../components/SettingSwitchCard';

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
  return (
    <SettingSwitchCard
      title={t('l4AttackPage.title')}
      label={t('l4AttackPage.shown')}
      hint={t('l4AttackPage.hint')}
      checked={setting.data?.data.enabled}
      fallback={false}
      busy={setting.isLoading || save.isPending}
      canWrite={canWrite}
      onChange={(next) => save.mutate(next)}
      style={{ marginBottom: 24 }}
    />
  );
}
