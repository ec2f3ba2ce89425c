import {
  certificateRoutes,
  domainRoutes,
  domainSettingsInput,
  HASH_TYPES,
  ORIGIN_SCHEMES,
  type SiteDomain,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { routeQuery } from '../../../../app/route-query';
import { useCreateOrUpdate } from '../../../../app/use-create-or-update';
import { FormModal } from '../../../../components/FormModal';
import { nestedFieldNames } from '../../../../forms/server-errors';
import { valueRules } from '../../../../forms/zod-rules';
import {
  createFieldOf,
  type DomainValues,
  domainSettings,
  domainsToCreate,
  domainValues,
  NEW_DOMAIN,
  namesRules,
} from './domain-form';
import { UpstreamsList } from './UpstreamsList';

const hostNameRules = valueRules(domainSettingsInput.shape.hostName);
const SETTINGS_FIELDS = [
  'upstreams',
  'scheme',
  'hashType',
  'hostName',
  'forceSSL',
  'autoSSL',
  'portMap',
  'certificateID',
];
interface DomainFormModalProps {
  siteId: number;
  /** 'new' adds domains, a domain edits it (its name stays), null closes. */
  domain: SiteDomain | 'new' | null;
  onClose: () => void;
}

/**
 * Adds domains (several names, one per line, sharing one set of origins and settings) or edits one
 * domain's settings and origins. Names already taken come back as a 101009 listing each name.
 */
export function DomainFormModal({ siteId, domain, onClose }: DomainFormModalProps) {
  const { t } = useTranslation('domains');
  const [form] = Form.useForm<DomainValues>();
  const params = { siteId };
  const certificates = useQuery({
    ...routeQuery('user', certificateRoutes.metaCertificates, { params }),
    enabled: domain !== null,
  });
  const save = useCreateOrUpdate('user', {
    create: domainRoutes.createDomains,
    update: domainRoutes.updateDomain,
    createInput: (values: DomainValues) => ({ params, body: { domains: domainsToCreate(values) } }),
    updateInput: (values, existing: SiteDomain) => ({
      params,
      // The PUT replaces every setting: status and tags go back as they are.
      body: { ...domainSettings(values), id: existing.id, status: existing.status, tags: existing.tags },
    }),
    invalidates: changes('domains'),
    form: { instance: form, fields: nestedFieldNames(SETTINGS_FIELDS) },
    createFields: createFieldOf,
    onSuccess: onClose,
  });
  const existing = domain === 'new' ? null : domain;

  return (
    <FormModal<DomainValues>
      open={domain !== null}
      title={existing ? t('form.editTitle', { name: existing.name }) : t('form.addTitle')}
      form={form}
      width={720}
      pending={save.pending}
      onCancel={onClose}
      initialValues={existing ? domainValues(existing) : NEW_DOMAIN}
      onSubmit={(values) => save.submit(values, existing)}
    >
      {!existing && (
        <Form.Item name="names" label={t('form.names')} extra={t('form.namesHint')} rules={namesRules} required>
          <Input.TextArea rows={4} autoFocus spellCheck={false} />
        </Form.Item>
      )}
      <Form.Item label={t('form.upstreams')} required>
        <UpstreamsList />
      </Form.Item>
      <Form.Item name="scheme" label={t('form.scheme')}>
        <Radio.Group
          options={[
            { value: ORIGIN_SCHEMES.http, label: t('schemes.http') },
            { value: ORIGIN_SCHEMES.https, label: t('schemes.https') },
          ]}
        />
      </Form.Item>
      <Form.Item name="hashType" label={t('form.hashType')}>
        <Select
          options={[
            { value: HASH_TYPES.roundRobin, label: t('hashTypes.roundRobin') },
            { value: HASH_TYPES.ipHash, label: t('hashTypes.ipHash') },
          ]}
        />
      </Form.Item>
      <Form.Item name="hostName" label={t('form.hostName')} extra={t('form.hostNameHint')} rules={hostNameRules}>
        <Input spellCheck={false} />
      </Form.Item>
      <Form.Item name="certificateID" label={t('certificate')}>
        <Select
          loading={certificates.isLoading}
          options={[
            { value: 0, label: t('noCertificate') },
            ...(certificates.data?.data ?? []).map((cert) => ({ value: cert.id, label: cert.name })),
          ]}
        />
      </Form.Item>
      <Form.Item name="forceSSL" label={t('forceSSL')} valuePropName="checked">
        <Switch />
      </Form.Item>
      {/* Automatic issuance is not built yet: the switch is not shown, but the stored choice goes back unchanged. */}
      <Form.Item name="autoSSL" hidden valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="portMap" label={t('portMap')} extra={t('form.portMapHint')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </FormModal>
  );
}
