import { clientSiteRoutes, type ExtraTrafficPlan, trafficRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { changes } from '../../../app/resource-changes';
import { routeQuery } from '../../../app/route-query';
import { useCreateOrUpdate } from '../../../app/use-create-or-update';
import { FormModal } from '../../../components/FormModal';
import { bytesToGb, gbToBytes, monthChoices, monthKey, parseMonth } from '../../../features/traffic/traffic-units';
import { NumberInput } from '../../../forms/NumberInput';
import { schemaRules } from '../../../forms/zod-rules';

interface PlanValues {
  siteID: number;
  period: string;
  gigabytes: number;
  memo: string;
}

/** Form field → body field, and back for the field errors of a 101003 reply. */
const BODY_FIELD: Record<string, string> = { gigabytes: 'bytes', period: 'year' };
const FORM_FIELD: Record<string, string> = {
  siteID: 'siteID',
  bytes: 'gigabytes',
  year: 'period',
  month: 'period',
  memo: 'memo',
};

function toBody({ siteID, period, gigabytes, memo }: PlanValues) {
  const month = parseMonth(period) ?? { year: 0, month: 0 };
  return { siteID, bytes: gbToBytes(gigabytes), ...month, memo: memo ?? '' };
}

const rules = schemaRules(
  z.preprocess((values) => toBody(values as PlanValues), trafficRoutes.createTrafficPlan.request.body),
  {},
  (field) => BODY_FIELD[field] ?? field,
);

/** Sells extra traffic ('new') or edits a plan: the site, the month (a year back to a year ahead), GB and a memo. */
export function TrafficPlanFormModal({
  plan,
  onClose,
}: {
  plan: ExtraTrafficPlan | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('traffic');
  const [form] = Form.useForm<PlanValues>();
  const sites = useQuery({
    ...routeQuery('client', clientSiteRoutes.metaSites, { query: {} }),
    enabled: plan !== null,
  });
  const save = useCreateOrUpdate('client', {
    create: trafficRoutes.createTrafficPlan,
    update: trafficRoutes.updateTrafficPlan,
    createInput: (values: PlanValues) => ({ body: toBody(values) }),
    updateInput: ({ id, ...values }) => ({ body: { ...toBody(values), id } }),
    invalidates: changes('trafficPlans'),
    form: { instance: form, fields: (path: readonly string[]) => FORM_FIELD[path[0] ?? ''] },
    onSuccess: onClose,
  });
  const existing = plan === 'new' ? null : plan;
  const months = monthChoices(Date.now(), 12, 12);
  return (
    <FormModal<PlanValues>
      open={plan !== null}
      title={existing ? t('edit') : t('create')}
      form={form}
      width={560}
      pending={save.pending}
      onCancel={onClose}
      initialValues={
        existing
          ? {
              siteID: existing.siteID,
              period: monthKey(existing.year, existing.month),
              gigabytes: bytesToGb(existing.bytes),
              memo: existing.memo,
            }
          : { period: months[12], memo: '' }
      }
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="siteID" label={t('site')} rules={rules('siteID')} required>
        <Select
          showSearch
          optionFilterProp="label"
          loading={sites.isLoading}
          options={sites.data?.data.map((site) => ({ value: site.id, label: site.name }))}
        />
      </Form.Item>
      <Form.Item name="period" label={t('month')} rules={rules('period')} required>
        <Select options={months.map((value) => ({ value, label: value }))} />
      </Form.Item>
      <Form.Item name="gigabytes" label={t('gigabytes')} rules={rules('gigabytes')} required>
        <NumberInput style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="memo" label={t('memo')} rules={rules('memo')}>
        <Input.TextArea rows={2} />
      </Form.Item>
    </FormModal>
  );
}
