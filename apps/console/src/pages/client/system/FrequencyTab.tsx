import { type FrequencySetting, frequencySettingSchema, notificationRoutes as r } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toast } from '../../../app/toast';
import { LoadFailed } from '../../../components/LoadFailed';
import { NumberInput } from '../../../forms/NumberInput';
import { schemaRules } from '../../../forms/zod-rules';

const rules = schemaRules(frequencySettingSchema);

/**
 * `client/setting/frequency`: the operator's trigger rates, i.e. how many blocked requests of one
 * site within how many minutes raise the attack-spike alert (docs/decisions.md "Trigger rates").
 */
export function FrequencyTab({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation('systemSettings');
  const [form] = Form.useForm<FrequencySetting>();
  const current = useQuery(routeQuery('client', r.getFrequencySetting, {}));
  const save = useRouteMutation('client', r.saveFrequencySetting, {
    input: (body: FrequencySetting) => ({ body }),
    invalidates: changes('systemSettings'),
    form: { instance: form, fields: ['spikeThreshold', 'spikeWindowMinutes'] },
    onSuccess: (reply) =>
      toast.success(
        t('frequency.saved', { threshold: reply.data.spikeThreshold, minutes: reply.data.spikeWindowMinutes }),
      ),
  });
  if (!current.data && current.isError)
    return <LoadFailed title={t('frequency.failed')} onRetry={() => current.refetch()} />;
  if (!current.data) return <Spin />;
  return (
    <>
      <Alert type="info" showIcon title={t('frequency.intro')} style={{ marginBottom: 16 }} />
      <Form
        form={form}
        layout="vertical"
        aria-label={t('tabs.frequency')}
        disabled={!canWrite}
        initialValues={current.data.data}
        onFinish={(values) => save.mutate(values)}
      >
        <Space wrap>
          <Form.Item name="spikeThreshold" label={t('frequency.spikeThreshold')} rules={rules('spikeThreshold')}>
            <NumberInput style={{ width: 200 }} />
          </Form.Item>
          <Form.Item
            name="spikeWindowMinutes"
            label={t('frequency.spikeWindowMinutes')}
            rules={rules('spikeWindowMinutes')}
          >
            <NumberInput style={{ width: 160 }} />
          </Form.Item>
        </Space>
        <div>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('save')}
          </Button>
        </div>
      </Form>
    </>
  );
}
