import { domainProofRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { SettingSwitchCard } from '../../../components/SettingSwitchCard';

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
  return (
    <SettingSwitchCard
      title={t('proof.title')}
      label={t('proof.required')}
      hint={t('proof.hint')}
      checked={setting.data?.data.required}
      fallback
      busy={setting.isLoading || save.isPending}
      canWrite={canWrite}
      onChange={(next) => save.mutate(next)}
      style={{ marginTop: 24 }}
    />
  );
}
