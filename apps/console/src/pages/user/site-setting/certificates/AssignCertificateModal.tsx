import { type CertificateSummary, certificateRoutes, domainRoutes, PAGE_SIZE_MAX } from '@rampart/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { FormModal } from '../../../../components/FormModal';
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
  const [keywords, setKeywords] = useState('');
  const chosen = Form.useWatch('domainIDs', form) ?? [];
  // Labels of every domain seen, so chosen ones keep theirs while a later search does not list them.
  const labels = useRef(new Map<number, string>()).current;
  const params = { siteId };
  const domains = useQuery({
    ...routeQuery('user', domainRoutes.listDomains, {
      params,
      query: {
        page: 1,
        pageSize: PAGE_SIZE_MAX,
        keywords: keywords === '' ? undefined : keywords,
        sortBy: 'name',
        orderBy: 'asc',
      },
    }),
    enabled: certificate !== null,
    placeholderData: keepPreviousData,
  });
  const assign = useRouteMutation('user', certificateRoutes.assignCertificate, {
    input: ({ domainIDs, certificateID }: AssignValues & { certificateID: number }) => ({
      params,
      body: { certificateID, domainIDs },
    }),
    invalidates: [certificateRoutes.listCertificates, certificateRoutes.getCertificate, domainRoutes.listDomains],
    success: () => toastText('assignCertificateSuccess'),
    form: { instance: form, fields: ['domainIDs'] },
    onSuccess: onClose,
  });

  for (const domain of domains.data?.data ?? []) {
    labels.set(domain.id, domain.certificateID === 0 ? domain.name : `${domain.name} (${domain.certificateName})`);
  }
  const listed = new Set((domains.data?.data ?? []).map((domain) => domain.id));
  const options = [...listed, ...chosen.filter((id) => !listed.has(id))].map((id) => ({
    value: id,
    label: labels.get(id) ?? `#${id}`,
  }));

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
          showSearch={{ filterOption: false, onSearch: (text) => setKeywords(text.trim()) }}
          loading={domains.isFetching}
          notFoundContent={t('assign.noDomains')}
          options={options}
        />
      </Form.Item>
    </FormModal>
  );
}
