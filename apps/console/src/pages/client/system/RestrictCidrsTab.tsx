import { systemSettingRoutes as r } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toast } from '../../../app/toast';
import { LinesSettingForm } from './LinesSettingForm';

/** `client/setting/restrictGroupCIDRs`: where the operator's own accounts may sign in and call from. */
export function RestrictCidrsTab({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation('systemSettings');
  const current = useQuery(routeQuery('client', r.getRestrictCidrsSetting, {}));
  const save = useRouteMutation('client', r.saveRestrictCidrsSetting, {
    input: (cidrs: string[]) => ({ body: { cidrs } }),
    invalidates: changes('systemSettings'),
    onSuccess: (reply) =>
      toast.success(
        reply.data.cidrs.length === 0 ? t('cidrs.savedAny') : t('cidrs.saved', { count: reply.data.cidrs.length }),
      ),
  });
  if (!current.data) return <Spin />;
  return (
    <>
      <Alert type="info" showIcon title={t('cidrs.intro')} style={{ marginBottom: 16 }} />
      <LinesSettingForm
        current={current.data.data.cidrs}
        canWrite={canWrite}
        label={t('cidrs.label')}
        hint={t('cidrs.hint')}
        placeholder={'203.0.113.0/24\n198.51.100.7'}
        saving={save.isPending}
        onSave={(cidrs) => save.mutate(cidrs)}
      />
    </>
  );
}
