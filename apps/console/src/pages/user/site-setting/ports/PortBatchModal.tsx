import { STREAM_PROTOCOLS, sitePortBatchSchema, sitePortRoutes } from '@rampart/contract';
import { Flex, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { changes } from '../../../../app/resource-changes';
import { useRouteMutation } from '../../../../app/route-query';
import { createdText } from '../../../../app/toast';
import { FormModal } from '../../../../components/FormModal';
import { refuseEntries } from '../../../../forms/line-rules';
import { NumberInput } from '../../../../forms/NumberInput';
import { valueRules } from '../../../../forms/zod-rules';

interface BatchValues {
  portFrom: number;
  portTo: number;
  upstreamPortFrom: number;
  upstreamPortTo: number;
  protocol: (typeof STREAM_PROTOCOLS)[number];
  /** Upstream IPs, each receiving every port of the upstream range. */
  ips: string[];
}

const portRules = valueRules(sitePortBatchSchema.shape.portFrom);
/** The typed IPs as the batch's upstreams, checked with the contract's list of them (each IP, how many). */
const upstreamIPsSchema = z.preprocess(
  (ips) => (ips as string[]).map((ip) => ({ ip })),
  sitePortBatchSchema.shape.upstreams,
);
const FIELDS = ['portFrom', 'portTo', 'upstreamPortFrom', 'upstreamPortTo', 'protocol', 'ips'] as const;

/**
 * Batch create: a listen range mapped port by port onto an upstream range of the same length, on
 * every upstream IP (the server answers 101011 when the lengths differ).
 */
export function PortBatchModal({ siteId, open, onClose }: { siteId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('ports');
  const [form] = Form.useForm<BatchValues>();
  const batch = useRouteMutation('user', sitePortRoutes.batchCreateSitePorts, {
    input: ({ ips, ...v }: BatchValues) => ({
      params: { siteId },
      body: { ...v, upstreams: ips.map((ip) => ({ ip })) },
    }),
    invalidates: changes('sitePorts'),
    success: createdText,
    form: {
      instance: form,
      fields: (path) =>
        path[0] === 'upstreams' ? 'ips' : (FIELDS as readonly string[]).includes(path[0] ?? '') ? path[0] : undefined,
    },
    onSuccess: onClose,
  });
  const range = (from: keyof BatchValues, to: keyof BatchValues, label: string) => (
    <Form.Item label={label} required>
      <Flex gap="small" align="flex-start">
        <Form.Item name={from} rules={portRules} style={{ flex: 1, marginBottom: 0 }}>
          <NumberInput aria-label={t('batch.from', { what: label })} style={{ width: '100%' }} />
        </Form.Item>
        <span style={{ lineHeight: '32px' }}>–</span>
        <Form.Item name={to} rules={portRules} style={{ flex: 1, marginBottom: 0 }}>
          <NumberInput aria-label={t('batch.to', { what: label })} style={{ width: '100%' }} />
        </Form.Item>
      </Flex>
    </Form.Item>
  );

  return (
    <FormModal<BatchValues>
      open={open}
      title={t('batch.title')}
      form={form}
      width={560}
      pending={batch.isPending}
      onCancel={onClose}
      initialValues={{ protocol: 'tcp', ips: [] }}
      onSubmit={(values) => batch.mutate(values)}
    >
      {range('portFrom', 'portTo', t('batch.ports'))}
      {range('upstreamPortFrom', 'upstreamPortTo', t('batch.upstreamPorts'))}
      <Form.Item name="protocol" label={t('protocol')}>
        <Select options={STREAM_PROTOCOLS.map((p) => ({ value: p, label: t(`protocols.${p}`) }))} />
      </Form.Item>
      <Form.Item
        name="ips"
        label={t('batch.ips')}
        extra={t('batch.ipsHint')}
        rules={[
          { required: true, type: 'array', min: 1, message: t('batch.ipsRequired') },
          {
            validator: (_rule, ips: string[] | undefined) =>
              ips?.length
                ? refuseEntries(upstreamIPsSchema, ips, (position, value, message) =>
                    t('batch.ipError', { position, value, message }),
                  )
                : Promise.resolve(),
          },
        ]}
      >
        <Select mode="tags" open={false} suffixIcon={null} aria-label={t('batch.ips')} tokenSeparators={[',', ' ']} />
      </Form.Item>
    </FormModal>
  );
}
