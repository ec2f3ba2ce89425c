import { type CertificateSummary, certificateRoutes } from '@rampart/contract';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { FormModal } from '../../../../components/FormModal';
import { useSiteDomainOptions } from '../../../../features/domains/use-site-domain-options';
import { schemaRules } from '../../../../forms/zod-rules';

interface AssignValues {
  domainIDs: number[];
}

const rules = schemaRules(certificateRoutes.assignCertificate.request.body, { certificateID: 1 });

interface AssignCertificateModalProps {
  siteId: number;
  /** The certificate to assign; null closes the dialog. */
  certificate: CertificateSummary | null;
  onClose: () => void;
}

/**
 * Assigns a certificate to domains of the site (`PATCH .../certificate/domains`). The domains come
 * from the site's domain list, searched on the server; each shows the certificate it has now.
 * A certificate that does not cover a chosen domain is refused (301001).
 */
export function AssignCertificateModal({ siteId, certificate, onClose }: AssignCertificateModalProps) {
  const { t } = useTranslation('certificates');
  const [form] = Form.useForm<AssignValues>();
  const chosen = Form.useWatch('domainIDs', form) ?? [];
  const params = { siteId };
  const domains = useSiteDomainOptions({
    siteId,
    enabled: certificate !== null,
    chosen,
    label: (domain) => (domain.certificateID === 0 ? domain.name : `${domain.name} (${domain.certificateName})`),
  });
  const assign = useRouteMutation('user', certificateRoutes.assignCertificate, {
    input: ({ domainIDs, certificateID }: AssignValues & { certificateID: number }) => ({
      params,
      body: { certificateID, domainIDs },
    }),
    invalidates: changes('certificates'),
    success: () => toastText('assignCertificateSuccess'),
    form: { instance: form, fields: ['domainIDs'] },
    onSuccess: onClose,
  });

  return (
    <FormModal<AssignValues>
      open={certificate !== null}
      title={t('assign.title', { name: certificate?.name ?? '' })}
      form={form}
      width={560}
      pending={assign.isPending}
      onCancel={onClose}
      initialValues={{ domainIDs: [] }}
      onSubmit={(values) => certificate && assign.mutate({ ...values, certificateID: certificate.id })}
    >
      <p style={{ marginTop: 0 }}>{t('assign.covers', { names: certificate?.names.join(', ') ?? '' })}</p>
      <Form.Item name="domainIDs" label={t('domains')} rules={rules('domainIDs')} required>
        <Select
          mode="multiple"
          showSearch={{ filterOption: false, onSearch: domains.onSearch }}
          loading={domains.loading}
          notFoundContent={t('assign.noDomains')}
          options={domains.options}
        />
      </Form.Item>
    </FormModal>
  );
}
