import { type SitePort, STREAM_PROTOCOLS, sitePortInputSchema, sitePortRoutes } from '@rampart/contract';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { useCreateOrUpdate } from '../../../../app/use-create-or-update';
import { FormModal } from '../../../../components/FormModal';
import { NumberInput } from '../../../../forms/NumberInput';
import { nestedFieldNames } from '../../../../forms/server-errors';
import { valueRules } from '../../../../forms/zod-rules';
import { NEW_UPSTREAM, type UpstreamRow } from '../domains/domain-form';
import { UpstreamsList } from '../domains/UpstreamsList';

interface PortValues {
  port: number;
  protocol: SitePort['protocol'];
  hashType: 0 | 1;
  memo: string;
  /** Create only: the port's upstreams (edited afterwards in their own dialog). */
  upstreams: UpstreamRow[];
}

const shape = sitePortInputSchema.shape;
const portRules = valueRules(shape.port);
const memoRules = valueRules(shape.memo);
const FIELDS = nestedFieldNames(['port', 'protocol', 'hashType', 'memo', 'upstreams']);

interface PortFormModalProps {
  siteId: number;
  /** 'new' adds a port, a port edits it, null closes. */
  port: SitePort | 'new' | null;
  onClose: () => void;
}

/** Adds a layer-4 port with its upstreams, or edits a port's number, protocol, balancing and memo. */
export function PortFormModal({ siteId, port, onClose }: PortFormModalProps) {
  const { t } = useTranslation('ports');
  const [form] = Form.useForm<PortValues>();
  const params = { siteId };
  const existing = port === 'new' ? null : port;
  // A create's field errors come back as ports.0.…: the form shows that one port.
  const createFields = (path: readonly string[]) => FIELDS(path[0] === 'ports' ? path.slice(2) : path);
  const save = useCreateOrUpdate('user', {
    create: sitePortRoutes.addSitePorts,
    update: sitePortRoutes.updateSitePort,
    createInput: (v: PortValues) => ({
      params,
      body: {
        ports: [
          { port: v.port, protocol: v.protocol, hashType: v.hashType, memo: v.memo ?? '', upstreams: v.upstreams },
        ],
      },
    }),
    updateInput: (v) => ({
      params,
      body: { id: v.id, port: v.port, protocol: v.protocol, hashType: v.hashType, memo: v.memo ?? '' },
    }),
    invalidates: changes('sitePorts'),
    form: { instance: form, fields: FIELDS },
    createFields,
    onSuccess: onClose,
  });

  return (
    <FormModal<PortValues>
      open={port !== null}
      title={existing ? t('form.editTitle', { port: existing.port }) : t('form.addTitle')}
      form={form}
      width={720}
      pending={save.pending}
      onCancel={onClose}
      initialValues={
        existing
          ? { port: existing.port, protocol: existing.protocol, hashType: existing.hashType, memo: existing.memo }
          : { protocol: 'tcp', hashType: 0, memo: '', upstreams: [{ ...NEW_UPSTREAM }] }
      }
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="port" label={t('port')} rules={portRules} required>
        <NumberInput autoFocus style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="protocol" label={t('protocol')}>
        <Select options={STREAM_PROTOCOLS.map((p) => ({ value: p, label: t(`protocols.${p}`) }))} />
      </Form.Item>
      <Form.Item name="hashType" label={t('hashType')}>
        <Select options={[0, 1].map((h) => ({ value: h, label: t(`hashTypes.${h as 0 | 1}`) }))} />
      </Form.Item>
      <Form.Item name="memo" label={t('memo')} rules={memoRules}>
        <Input />
      </Form.Item>
      {!existing && (
        <Form.Item label={t('upstreams')} required>
          <UpstreamsList />
        </Form.Item>
      )}
    </FormModal>
  );
}
