import { outgoingUrlSettingInSchema, systemSettingRoutes as r, restrictCidrsSettingInSchema } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toast } from '../../../app/toast';
import { LoadFailed } from '../../../components/LoadFailed';
import { LinesSettingForm } from './LinesSettingForm';

/** The tab of a list setting: its intro, its lines, and a save whose toast says what the list now does. */
function ListSettingTab({
  prefix,
  list,
  current,
  canWrite,
  placeholder,
  saving,
  onSave,
  failed,
  onRetry,
}: {
  prefix: 'outgoing' | 'cidrs';
  /** The contract's schema of the whole list, which checks every line before the save. */
  list: z.ZodType;
  current: readonly string[] | undefined;
  /** The setting could not be loaded: say so with a retry, rather than spin forever. */
  failed: boolean;
  onRetry: () => void;
  canWrite: boolean;
  placeholder: string;
  saving: boolean;
  onSave: (lines: string[]) => void;
}) {
  const { t } = useTranslation('systemSettings');
  if (!current && failed) return <LoadFailed title={t(`${prefix}.failed`)} onRetry={onRetry} />;
  if (!current) return <Spin />;
  return (
    <>
      <Alert type="info" showIcon title={t(`${prefix}.intro`)} style={{ marginBottom: 16 }} />
      <LinesSettingForm
        list={list}
        current={current}
        canWrite={canWrite}
        label={t(`${prefix}.label`)}
        hint={t(`${prefix}.hint`)}
        placeholder={placeholder}
        saving={saving}
        onSave={onSave}
      />
    </>
  );
}

function useSavedToast(prefix: 'outgoing' | 'cidrs') {
  const { t } = useTranslation('systemSettings');
  return (count: number) => toast.success(count === 0 ? t(`${prefix}.savedAny`) : t(`${prefix}.saved`, { count }));
}

/** `client/setting/outgoingURL`: where Rampart may call out to for the operator (empty: anywhere). */
export function OutgoingUrlTab({ canWrite }: { canWrite: boolean }) {
  const current = useQuery(routeQuery('client', r.getOutgoingUrlSetting, {}));
  const saved = useSavedToast('outgoing');
  const save = useRouteMutation('client', r.saveOutgoingUrlSetting, {
    input: (urls: string[]) => ({ body: { urls } }),
    invalidates: changes('systemSettings'),
    onSuccess: (reply) => saved(reply.data.urls.length),
  });
  return (
    <ListSettingTab
      prefix="outgoing"
      list={outgoingUrlSettingInSchema.shape.urls}
      current={current.data?.data.urls}
      failed={current.isError}
      onRetry={() => current.refetch()}
      canWrite={canWrite}
      placeholder={'https://api.cloudflare.com\n*.example.com\nsmtp://mail.example.com:587'}
      saving={save.isPending}
      onSave={(urls) => save.mutate(urls)}
    />
  );
}

/** `client/setting/restrictGroupCIDRs`: where the operator's own accounts may sign in and call from. */
export function RestrictCidrsTab({ canWrite }: { canWrite: boolean }) {
  const current = useQuery(routeQuery('client', r.getRestrictCidrsSetting, {}));
  const saved = useSavedToast('cidrs');
  const save = useRouteMutation('client', r.saveRestrictCidrsSetting, {
    input: (cidrs: string[]) => ({ body: { cidrs } }),
    invalidates: changes('systemSettings'),
    onSuccess: (reply) => saved(reply.data.cidrs.length),
  });
  return (
    <ListSettingTab
      prefix="cidrs"
      list={restrictCidrsSettingInSchema.shape.cidrs}
      current={current.data?.data.cidrs}
      failed={current.isError}
      onRetry={() => current.refetch()}
      canWrite={canWrite}
      placeholder={'203.0.113.0/24\n198.51.100.7'}
      saving={save.isPending}
      onSave={(cidrs) => save.mutate(cidrs)}
    />
  );
}
