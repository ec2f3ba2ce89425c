import { type CertificateSummary, certificateRoutes } from '@rampart/contract';
import { Checkbox, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { toastText } from '../../../../app/toast';
import { useCreateOrUpdate } from '../../../../app/use-create-or-update';
import { FormModal } from '../../../../components/FormModal';
import { schemaRules } from '../../../../forms/zod-rules';
import { PemField } from './PemField';

interface CertificateValues {
  name: string;
  memo: string;
  /** Edit only: replace the chain and key (both together). */
  replace?: boolean;
  certificate?: string;
  privateKey?: string;
}

const FIELDS = ['name', 'memo', 'certificate', 'privateKey'] as const;
const createRules = schemaRules(certificateRoutes.createCertificate.request.body);

interface CertificateFormModalProps {
  siteId: number;
  /** 'new' uploads, a certificate edits it, null closes. */
  certificate: CertificateSummary | 'new' | null;
  onClose: () => void;
}

/** Uploads a certificate (name, memo, PEM chain, private key) or edits one: rename, or replace chain and key. */
export function CertificateFormModal({ siteId, certificate, onClose }: CertificateFormModalProps) {
  const { t } = useTranslation('certificates');
  const [form] = Form.useForm<CertificateValues>();
  const replace = Form.useWatch('replace', form) ?? false;
  const params = { siteId };
  const save = useCreateOrUpdate('user', {
    create: certificateRoutes.createCertificate,
    update: certificateRoutes.updateCertificate,
    createInput: ({ name, memo, certificate = '', privateKey = '' }: CertificateValues) => ({
      params,
      body: { name, memo: memo ?? '', certificate, privateKey },
    }),
    updateInput: ({ id, name, memo, replace, certificate, privateKey }) => ({
      params,
      body: replace ? { id, name, memo: memo ?? '', certificate, privateKey } : { id, name, memo: memo ?? '' },
    }),
    invalidates: changes('certificates'),
    form: { instance: form, fields: FIELDS },
    success: {
      create: () => toastText('updateCertificateSuccess'),
      update: () => toastText('updateCertificateSuccess'),
    },
    onSuccess: onClose,
  });
  const existing = certificate === 'new' ? null : certificate;
  const showPem = existing === null || replace;

  return (
    <FormModal<CertificateValues>
      open={certificate !== null}
      title={existing ? t('form.editTitle', { name: existing.name }) : t('form.uploadTitle')}
      form={form}
      width={720}
      pending={save.pending}
      onCancel={onClose}
      initialValues={existing ? { name: existing.name, memo: existing.memo, replace: false } : { memo: '' }}
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="name" label={t('name')} rules={createRules('name')} required>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="memo" label={t('memo')} rules={createRules('memo')}>
        <Input />
      </Form.Item>
      {existing && (
        <Form.Item name="replace" valuePropName="checked">
          <Checkbox>{t('form.replace')}</Checkbox>
        </Form.Item>
      )}
      {showPem && (
        <>
          <Form.Item name="certificate" label={t('form.certificate')} rules={createRules('certificate')} required>
            <PemField fileLabel={t('form.certificateFile')} />
          </Form.Item>
          <Form.Item name="privateKey" label={t('form.privateKey')} rules={createRules('privateKey')} required>
            <PemField fileLabel={t('form.privateKeyFile')} />
          </Form.Item>
        </>
      )}
    </FormModal>
  );
}
