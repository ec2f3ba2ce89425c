import { accountZoneRoutes, type ManagedAccount, zoneRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Select, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { FormModal } from '../../../components/FormModal';

interface ZoneValues {
  zoneIDs: number[];
}

/**
 * The zones an operator's sub-account may work on (`PUT client/{clientId}/zones`): none chosen
 * lets it work on every zone; the server then refuses any other zone or node (101018).
 */
export function AssignZonesModal({ account, onClose }: { account: ManagedAccount | null; onClose: () => void }) {
  const { t } = useTranslation('accounts');
  const [form] = Form.useForm<ZoneValues>();
  const open = account !== null;
  const current = useQuery({
    ...routeQuery('client', accountZoneRoutes.getAccountZones, { params: { clientId: account?.id ?? 0 } }),
    enabled: open,
  });
  const zones = useQuery({ ...routeQuery('client', zoneRoutes.metaZones, {}), enabled: open });
  const save = useRouteMutation('client', accountZoneRoutes.setAccountZones, {
    input: ({ id, zoneIDs }: { id: number; zoneIDs: number[] }) => ({ params: { clientId: id }, body: { zoneIDs } }),
    invalidates: changes('accountZones'),
    success: () => t('zonesSaved'),
    form: { instance: form, fields: ['zoneIDs'] },
    onSuccess: onClose,
  });
  const assigned = current.data?.data;
  // The assignment arrives after the dialog opened: the field starts from it once it is there.
  useEffect(() => {
    if (open && assigned) form.setFieldsValue({ zoneIDs: assigned.zoneIDs });
  }, [open, assigned, form]);
  return (
    <FormModal<ZoneValues>
      open={open}
      title={t('zonesTitle', { account: account?.account ?? '' })}
      form={form}
      pending={save.isPending}
      onCancel={onClose}
      initialValues={{ zoneIDs: assigned?.zoneIDs ?? [] }}
      onSubmit={(values) => account && save.mutate({ id: account.id, zoneIDs: values.zoneIDs ?? [] })}
    >
      <Typography.Paragraph type="secondary">{t('zonesHint')}</Typography.Paragraph>
      {assigned?.restricted && assigned.zoneIDs.length === 0 && (
        <Alert type="warning" showIcon message={t('zonesNoneLeft')} style={{ marginBottom: 16 }} />
      )}
      {current.isPending ? (
        <Spin />
      ) : (
        <Form.Item name="zoneIDs" label={t('zonesField')}>
          <Select
            aria-label={t('zonesField')}
            mode="multiple"
            allowClear
            placeholder={t('zonesAll')}
            loading={zones.isFetching}
            optionFilterProp="label"
            options={(zones.data?.data ?? []).map((zone) => ({ value: zone.id, label: zone.name }))}
          />
        </Form.Item>
      )}
    </FormModal>
  );
}
