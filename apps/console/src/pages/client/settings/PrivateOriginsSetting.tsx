import { privateOriginsRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { SettingSwitchCard } from '../../../components/SettingSwitchCard';

/**
 * Whether the operator's customers may have origins on loopback and private addresses
 * (`GET/PUT client/setting/privateOrigins`); off (the default) refuses them.
 */
export function PrivateOriginsSetting() {
  const { t } = useTranslation('cnameSetting');
  const canWrite = useCan('client.settings.write');
  const setting = useQuery(routeQuery('client', privateOriginsRoutes.getPrivateOriginsSetting, {}));
  const save = useRouteMutation('client', privateOriginsRoutes.putPrivateOriginsSetting, {
    input: (allowed: boolean) => ({ body: { allowed } }),
    invalidates: changes('privateOriginsSetting'),
    success: () => toastText('setSuccess'),
  });
  return (
    <SettingSwitchCard
      title={t('privateOrigins.title')}
      label={t('privateOrigins.allowed')}
      hint={t('privateOrigins.hint')}
      checked={setting.data?.data.allowed}
      fallback
      busy={setting.isLoading || save.isPending}
      canWrite={canWrite}
      onChange={(next) => save.mutate(next)}
      style={{ marginTop: 24 }}
    />
  );
}
