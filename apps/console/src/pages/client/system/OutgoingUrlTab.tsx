import { systemSettingRoutes as r } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toast } from '../../../app/toast';
import { LinesSettingForm } from './LinesSettingForm';

/** `client/setting/outgoingURL`: where Rampart may call out to for the operator (empty: anywhere). */
export function OutgoingUrlTab({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation('systemSettings');
  const current = useQuery(routeQuery('client', r.getOutgoingUrlSetting, {}));
  const save = useRouteMutation('client', r.saveOutgoingUrlSetting, {
    input: (urls: string[]) => ({ body: { urls } }),
    invalidates: changes('systemSettings'),
    onSuccess: (reply) =>
      toast.success(
        reply.data.urls.length === 0 ? t('outgoing.savedAny') : t('outgoing.saved', { count: reply.data.urls.length }),
      ),
  });
  if (!current.data) return <Spin />;
  return (
    <>
      <Alert type="info" showIcon title={t('outgoing.intro')} style={{ marginBottom: 16 }} />
      <LinesSettingForm
        current={current.data.data.urls}
        canWrite={canWrite}
        label={t('outgoing.label')}
        hint={t('outgoing.hint')}
        placeholder={'https://api.cloudflare.com\n*.example.com\nsmtp://mail.example.com:587'}
        saving={save.isPending}
        onSave={(urls) => save.mutate(urls)}
      />
    </>
  );
}
